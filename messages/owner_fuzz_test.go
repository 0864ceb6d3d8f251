package messages_test

import (
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

// builders are every owner route's reading of the body.
var builders = map[string]func(*messages.OwnerBody) (any, *messages.Error){
	"takeover": (*messages.OwnerBody).TakeOver, "resume": (*messages.OwnerBody).Resume,
	"release": (*messages.OwnerBody).Release, "screenshots": (*messages.OwnerBody).Screenshots,
	"snapshot": (*messages.OwnerBody).Snapshot, "task": (*messages.OwnerBody).StartTask,
	"decide": (*messages.OwnerBody).DecideTask, "site": (*messages.OwnerBody).DecideSite,
	"agent": (*messages.OwnerBody).AddAgent, "settings": (*messages.OwnerBody).ChangeSettings,
	"revoke": (*messages.OwnerBody).RevokeSite, "signout": (*messages.OwnerBody).SignOut,
	"bind": (*messages.OwnerBody).Bind, "unbind": (*messages.OwnerBody).Unbind, "open": (*messages.OwnerBody).OpenBrowser,
	"device": (*messages.OwnerBody).RemoveDevice,
}

// FuzzOwnerBody feeds every owner route (the dashboard's and the CLI's)
// arbitrary bytes: each is read into a message or refused with bad_input
// and a sentence, never a panic.
func FuzzOwnerBody(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"conversation":"c1"}`, `{"mode":"playwright","headless":true}`,
		`{"siteApproval":"ask","airGap":false}`, `{"url":"https://example.com/","conversation":"owner-1"}`,
		`{"site":"example.com","all":true}`, `{"decision":"once","conversation":"c","site":"s"}`,
		`{"token":"bl_x","id":"abc"}`, `{"steps":-1,"minutes":99999999999}`, `{"url":"javascript:alert(1)"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, e := messages.DecodeOwnerBody(raw)
		if e != nil {
			if e.Code != messages.CodeBadInput || e.Message == "" {
				t.Fatalf("decoding %q failed without a bad_input sentence: %v", raw, e)
			}
			return
		}
		for name, build := range builders {
			msg, e := build(b)
			if e != nil && (e.Code != messages.CodeBadInput || e.Message == "") {
				t.Fatalf("%s refused %q without a bad_input sentence: %v", name, raw, e)
			}
			if e == nil && msg == nil {
				t.Fatalf("%s accepted %q and made no message", name, raw)
			}
		}
	})
}

func TestOwnerBodiesOfTheDashboardAreChecked(t *testing.T) {
	bad := map[string]struct {
		raw   string
		build func(*messages.OwnerBody) (any, *messages.Error)
	}{
		"no setting":          {`{}`, (*messages.OwnerBody).ChangeSettings},
		"unknown approval":    {`{"siteApproval":"maybe"}`, (*messages.OwnerBody).ChangeSettings},
		"relative address":    {`{"url":"/relative"}`, (*messages.OwnerBody).OpenBrowser},
		"bad conversation":    {`{"url":"https://a.example/","conversation":"bad id!"}`, (*messages.OwnerBody).OpenBrowser},
		"sign out of nothing": {`{}`, (*messages.OwnerBody).SignOut},
		"sign out of both":    {`{"site":"a.example","all":true}`, (*messages.OwnerBody).SignOut},
		"revoke nothing":      {`{"conversation":"c"}`, (*messages.OwnerBody).RevokeSite},
	}
	for name, c := range bad {
		raw, build := c.raw, c.build
		b, e := messages.DecodeOwnerBody([]byte(raw))
		if e == nil {
			_, e = build(b)
		}
		if e == nil || e.Code != messages.CodeBadInput {
			t.Errorf("%s: %s was accepted: %v", name, raw, e)
		}
	}
}
