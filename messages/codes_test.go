package messages_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"strconv"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

// declaredCodes reads every Code constant declared in code.go.
func declaredCodes(t *testing.T) map[messages.Code]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "code.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[messages.Code]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			v, _ := strconv.Unquote(lit.Value)
			out[messages.Code(v)] = vs.Names[0].Name
		}
		return true
	})
	return out
}

func TestEveryCodeHasOneRowInTheTable(t *testing.T) {
	declared := declaredCodes(t)
	if len(declared) < 50 {
		t.Fatalf("found only %d codes in code.go; the parser missed them", len(declared))
	}
	for c, name := range declared {
		if !c.Known() {
			t.Errorf("%s (%q) is declared but has no row in the table", name, c)
		}
	}
	for _, c := range messages.Codes() {
		if _, ok := declared[c]; !ok {
			t.Errorf("the table has a row for %q, which code.go does not declare", c)
		}
	}
}

func TestCodeTableSaysWhatTheAPIAnswers(t *testing.T) {
	for c, want := range map[messages.Code]int{
		messages.CodeUnauthorized: http.StatusUnauthorized, messages.CodeBadInput: http.StatusBadRequest,
		messages.CodeNoSession: http.StatusNotFound, messages.CodeTaskActive: http.StatusConflict,
		messages.CodeTimeout: http.StatusGatewayTimeout, messages.CodeStoreFailed: http.StatusInternalServerError,
		messages.CodeNotPaused: http.StatusBadRequest, messages.Code("made_up"): http.StatusBadRequest,
	} {
		if got := c.HTTPStatus(); got != want {
			t.Errorf("%s answers HTTP %d, want %d", c, got, want)
		}
	}
	for c, want := range map[messages.Code]bool{
		messages.CodeAirGap: true, messages.CodeCredential: true, messages.CodeBadURL: true,
		messages.CodeNotAllowed: true, messages.CodeTimeout: false, messages.CodeNavFailed: false,
		messages.CodeStaleRef: false,
	} {
		if c.BeforeInput() != want {
			t.Errorf("%s decided before input = %v, want %v", c, c.BeforeInput(), want)
		}
	}
}

func TestSharedSentencesFillTheirTemplate(t *testing.T) {
	e := messages.CodeUnreachable.Err("http://127.0.0.1:1")
	if e.Code != messages.CodeUnreachable || e.Message != "buddi is not running at http://127.0.0.1:1; start it with `buddi serve` (or `make run`)." {
		t.Fatalf("got %+v", e)
	}
	if e := messages.CodeNotAllowed.Err(); e.Message == "" {
		t.Fatal("not_allowed has no shared sentence")
	}
}

func TestErrorOfKeepsACodedErrorsCodeAndSentence(t *testing.T) {
	coded := &messages.Error{Code: messages.CodeAirGap, Message: "Air-gap is on."}
	wrapped := errorf("the policy: %w", coded)
	if got := messages.ErrorOf(wrapped, messages.CodeInternal); got.Code != messages.CodeAirGap || got.Message != "Air-gap is on." {
		t.Fatalf("ErrorOf(wrapped) = %+v", got)
	}
	if got := messages.ErrorOf(errorf("plain"), messages.CodeNotAllowed); got.Code != messages.CodeNotAllowed || got.Message != "plain" {
		t.Fatalf("ErrorOf(plain) = %+v", got)
	}
}
