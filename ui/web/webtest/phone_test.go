package webtest_test

import (
	"testing"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// fit is what the page measures of itself: how wide its content is against
// the screen, and its controls smaller than a fingertip (a checkbox or a
// radio button is touched through its label).
const fit = `() => {
  const small = [...document.querySelectorAll("button, a.nav-link, select, input:not([type=hidden])")]
    .filter((e) => e.offsetParent !== null)
    .map((e) => { const box = (e.type === "checkbox" || e.type === "radio") && e.closest("label") || e; return { e, r: box.getBoundingClientRect() }; })
    .filter(({ r }) => r.height < 24 || (r.height < 44 && r.width < 44))
    .map(({ e, r }) => e.outerHTML.slice(0, 80) + " " + Math.round(r.width) + "x" + Math.round(r.height));
  const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((e) => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right));
  return { scroll: document.documentElement.scrollWidth, width: window.innerWidth, small, wide };
}`

func TestEveryPageFitsAPhoneWithTouchSizedControls(t *testing.T) {
	o := start(t, askOpts())
	p := o.Page(t, 375, 812)
	o.SignIn(t, p)
	const long = "a-conversation-with-a-rather-long-name-to-wrap"
	tok := agent(t, o, "ada", long)
	page := in{"action": "navigate", "url": shop + "/p/1?with=a&very=long&query=string&that=goes&on=and&on=and&on"}
	o.Act(t, tok, long, page)
	o.Must(t, "POST", "/api/approvals", messages.OwnerBody{Conversation: long, Site: "example.com", Decision: messages.DecideAlways})
	o.Act(t, tok, long, page)
	o.Act(t, tok, long, in{"action": "wait_for", "wait": in{"text": "not on the page"}, "timeoutMs": 50})
	o.Act(t, agent(t, o, "carol", "c3"), "c3", in{"action": "navigate", "url": "https://example.org/"})
	o.Tool(t, o.AddAgent(t, "bob", false), "browser.task", "c2", in{"description": "a task request waiting for the owner"})
	pages := map[string]string{
		"phone-browser":              "#/browser",
		"phone-chat":                 "#/chat/ada/" + long,
		"phone-chat-canvas":          "#/chat/ada/" + long + "?tab=browser",
		"phone-tasks":                "#/tasks",
		"phone-settings-browser":     "#/settings/browser",
		"phone-settings-privacy":     "#/settings/privacy",
		"phone-settings-agents":      "#/settings/agents",
		"phone-settings-devices":     "#/settings/devices",
		"phone-settings-doctor":      "#/settings/doctor",
		"phone-settings-yourbrowser": "#/settings/yourbrowser",
		"phone-chat-empty-canvas":    "#/chat/bob/c2?tab=browser",
	}
	for name, route := range pages {
		goTo(t, o, p, route)
		webtest.Visible(t, p.Locator("main h1"))
		if name == "phone-settings-doctor" {
			webtest.Visible(t, p.Locator(".doctor li"))
		}
		v, err := p.Evaluate(fit)
		if err != nil {
			t.Fatal(err)
		}
		m := v.(map[string]any)
		if scroll, width := m["scroll"].(int), m["width"].(int); scroll > width {
			t.Errorf("%s scrolls sideways: %d px of content on a %d px screen: %v", route, scroll, width, m["wide"])
		}
		if small, _ := m["small"].([]any); len(small) > 0 {
			t.Errorf("%s has controls too small to touch: %v", route, small)
		}
		webtest.Screenshot(t, p, name)
	}
}
