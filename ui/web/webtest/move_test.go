package webtest_test

import (
	"strings"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

func TestTheConversationViewAndAnOldLinkFollowAMove(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 2)
	goTo(t, o, p, "#/chat/ada/c1?tab=browser")
	webtest.Visible(t, p.Locator(`.panel article.session[data-conversation="c1"]`))

	r := o.Must(t, "POST", "/api/browser/move", in{"conversation": "c1", "to": "c2"})
	if !r.OK {
		t.Fatalf("the move was refused: %s: %s", r.Code(), r.Error.Message)
	}
	webtest.Visible(t, p.Locator(".chat-head h1", pw.PageLocatorOptions{HasText: "ada · c2"}))
	webtest.Visible(t, p.Locator(".moved-note", pw.PageLocatorOptions{HasText: "This conversation moved to c2"}))
	if u := p.URL(); !strings.Contains(u, "#/chat/ada/c2") || strings.Contains(u, "moved=") {
		t.Fatalf("after the move the address is %s, want c2's view without the one-time note in it", u)
	}
	webtest.Click(t, p.Locator(`.tab[data-tab="browser"] button[role="tab"]`))
	webtest.Visible(t, p.Locator(`.panel article.session[data-conversation="c2"]`))
	webtest.Screenshot(t, p, "desktop-chat-moved")

	// A link to the old id, opened afresh (from a message or a bookmark),
	// lands on the new one and says so.
	old := o.Page(t, 1280, 900)
	o.SignIn(t, old)
	goTo(t, o, old, "#/chat/ada/c1")
	webtest.Visible(t, old.Locator(".chat-head h1", pw.PageLocatorOptions{HasText: "ada · c2"}))
	webtest.Visible(t, old.Locator(".moved-note", pw.PageLocatorOptions{HasText: "(it was c1)"}))
	if n, _ := old.Locator(".task-item", pw.PageLocatorOptions{HasText: "Task active"}).Count(); n != 1 {
		t.Fatalf("the moved conversation shows %d \"Task active\" lines, want 1", n)
	}
}
