package playwright_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

func TestCredentialFieldRefused(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/login", "Login", `<form method="post" action="/login">
<label>User <input name="user" value="ada"></label>
<label>Password <input type="password" name="pw" value="hunter2-secret"></label>
<label>Card <input name="cc" autocomplete="cc-number"></label>
<button>Sign in</button></form>`)
	s.mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {})
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/login")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if strings.Contains(obs.Tree, "hunter2") {
		t.Fatalf("the password value is in the tree:\n%s", obs.Tree)
	}
	if !strings.Contains(obs.Tree, "ada") {
		t.Fatalf("an ordinary field's value is missing:\n%s", obs.Tree)
	}
	for _, name := range []string{"Password", "Card"} {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Fill, Target: target(t, obs, "textbox", name), Value: "1234"})
		wantCode(t, err, messages.CodeCredential)
	}
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Press, Target: target(t, obs, "textbox", "Password"), Value: "x"})
	wantCode(t, err, messages.CodeCredential)
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: target(t, obs, "textbox", "User"), Value: "grace"})
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM})
	if strings.Contains(out.Text, "hunter2") || strings.Contains(out.Text, "1234") {
		t.Fatalf("dom shows a field value: %q", out.Text)
	}
	if s.hit("POST /login") != 0 {
		t.Fatalf("the form was submitted")
	}
}
