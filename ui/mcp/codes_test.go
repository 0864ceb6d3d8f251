package mcp_test

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// Rule 5: the codes browser_act's description names are codes the server
// returns, and the refusals an agent meets most are named.
func TestTheDescriptionNamesTheCodesTheServerReturns(t *testing.T) {
	d := newDaemon(t, answerJSON(http.StatusOK, `{"ok":true,"result":{}}`))
	cs := connect(t, config(d))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	desc := ""
	for _, tool := range res.Tools {
		if tool.Name == buddimcp.ToolAct {
			desc = tool.Description
		}
	}
	words := map[string]bool{}
	for _, a := range messages.Actions() {
		words[a.Name] = true
	}
	for _, w := range []string{"page_link", "browser_task", "browser_status", "browser_act"} {
		words[w] = true
	}
	for _, w := range regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`).FindAllString(desc, -1) {
		if !words[w] && !messages.Code(w).Known() {
			t.Errorf("the description names %q, which is no code the server returns", w)
		}
	}
	for _, c := range []messages.Code{
		messages.CodeStaleObservation, messages.CodeStaleRef, messages.CodeAmbiguous, messages.CodeNeverAutomate,
		messages.CodeUnapproved, messages.CodeApprovalRequired, messages.CodeNotApproved, messages.CodeScheme,
		messages.CodePrivate, messages.CodePort, messages.CodeBuddiAddress, messages.CodeNoApps, messages.CodeCredential,
		messages.CodeSecretValue, messages.CodePaused, messages.CodeTakenOver, messages.CodeStopped,
	} {
		if !slices.Contains(strings.FieldsFunc(desc, func(r rune) bool { return r != '_' && (r < 'a' || r > 'z') }), string(c)) {
			t.Errorf("the description does not name %s", c)
		}
	}
}

func TestARefusalsEvidenceReachesTheMCPClient(t *testing.T) {
	d := newDaemon(t, answerJSON(http.StatusOK, `{"ok":false,"error":{"code":"stale_ref","message":"e9 is gone.",`+
		`"observation":{"observation":"o1.5","url":"https://example.com/","text":"Observed 12:00:00 UTC.\nTREE-HERE","tabs":[],"stepsLeft":3}}}`))
	res := call(t, connect(t, config(d)), buddimcp.ToolAct, map[string]any{"action": "click", "observation": "o1.4", "target": map[string]any{"ref": "e9"}})
	got := text(t, res)
	if !res.IsError || !strings.HasPrefix(got, "stale_ref: e9 is gone.") || !strings.Contains(got, "Observation o1.5") || !strings.Contains(got, "TREE-HERE") {
		t.Fatalf("IsError %v, text %q", res.IsError, got)
	}
}
