package drivertest

import (
	"embed"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

//go:embed testdata/inputs.html testdata/inputs-frame.html testdata/frames.html testdata/frame-act.html testdata/stay.html
var inputPages embed.FS

// InputPages serves the input table's pages under /inputs/: the page
// itself, /inputs/frame (a field in a frame of the same origin) and
// /inputs/far, the same frame page loaded from the other loopback name
// (localhost for 127.0.0.1 and back), so that Chrome runs it as a
// cross-origin frame in a process of its own; and the frames test's
// /inputs/frames, a page holding /inputs/act twice, from each name; and
// /inputs/stay and /inputs/next (see MoveCases). A
// driver's test mounts it at /inputs/ on the server its Site is on;
// Site.Inputs is then that server's /inputs/.
func InputPages() http.Handler {
	read := func(file string) string {
		body, err := inputPages.ReadFile(file)
		if err != nil {
			panic("drivertest: " + err.Error())
		}
		return string(body)
	}
	page, frame := read("testdata/inputs.html"), read("testdata/inputs-frame.html")
	frames, act := read("testdata/frames.html"), read("testdata/frame-act.html")
	serve := func(w http.ResponseWriter, body string, pairs ...string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = strings.NewReplacer(pairs...).WriteString(w, body)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/inputs/{$}", func(w http.ResponseWriter, r *http.Request) {
		serve(w, page, "{{far}}", "http://"+otherHost(r.Host))
	})
	mux.HandleFunc("/inputs/frame", func(w http.ResponseWriter, _ *http.Request) {
		serve(w, frame, "{{label}}", "Framed", "{{name}}", "framed")
	})
	mux.HandleFunc("/inputs/far", func(w http.ResponseWriter, _ *http.Request) {
		serve(w, frame, "{{label}}", "Far away", "{{name}}", "faraway")
	})
	mux.HandleFunc("/inputs/frames", func(w http.ResponseWriter, r *http.Request) {
		serve(w, frames, "{{far}}", "http://"+otherHost(r.Host))
	})
	stay := read("testdata/stay.html")
	mux.HandleFunc("/inputs/stay", func(w http.ResponseWriter, _ *http.Request) { serve(w, stay) })
	mux.HandleFunc("/inputs/next", func(w http.ResponseWriter, _ *http.Request) {
		serve(w, "<!doctype html><title>Next</title><p>Next</p>")
	})
	mux.HandleFunc("/inputs/act", func(w http.ResponseWriter, r *http.Request) {
		side := r.URL.Query().Get("side")
		if side != "near" && side != "far" {
			http.NotFound(w, r)
			return
		}
		serve(w, act, "{{side}}", side)
	})
	return mux
}

// otherHost is host under the other loopback name: another site to the
// browser, served by the same server.
func otherHost(host string) string {
	if rest, ok := strings.CutPrefix(host, "127.0.0.1"); ok {
		return "localhost" + rest
	}
	if rest, ok := strings.CutPrefix(host, "localhost"); ok {
		return "127.0.0.1" + rest
	}
	panic("drivertest: the input pages are served on 127.0.0.1 or localhost, not " + host)
}

// inputCase is one kind of field: the action on it, and either the value
// the page's own input event must see or the refusal it must get (with
// nothing reaching the page).
type inputCase struct {
	role, name string
	kind       drivers.Kind
	value      string
	values     []string
	echo       string // "field=value" as the page saw it
	code       drivers.Code
	// masked says the field's value is a credential's: a read of the
	// field after the fill shows a mask, never the value.
	masked bool
	// secretFor, in a secret_fill, is the origin the owner's secret is
	// for: the inputs page's own ("page") or the other loopback name's
	// ("far").
	secretFor string
}

// inputCases are the kinds of field the web is made of. The driver under
// test must check typing with buddi's credential rules (egress.CheckTyping).
var inputCases = map[string]inputCase{
	"text":                     {role: "textbox", name: "Text", kind: drivers.Fill, value: "two words", echo: "text=two words"},
	"search":                   {role: "searchbox", name: "Search", kind: drivers.Fill, value: "opening hours", echo: "search=opening hours"},
	"number":                   {role: "spinbutton", name: "Number", kind: drivers.Fill, value: "42", echo: "number=42"},
	"number not a number":      {role: "spinbutton", name: "Number", kind: drivers.Fill, value: "forty", code: drivers.CodeBadInput},
	"email":                    {role: "textbox", name: "Email", kind: drivers.Fill, value: "ada@example.com", echo: "email=ada@example.com"},
	"tel":                      {role: "textbox", name: "Phone", kind: drivers.Fill, value: "+44 20 7946 0000", echo: "tel=+44 20 7946 0000"},
	"url":                      {role: "textbox", name: "Website", kind: drivers.Fill, value: "https://example.com/a", echo: "url=https://example.com/a"},
	"textarea":                 {role: "textbox", name: "Notes", kind: drivers.Fill, value: "a longer note", echo: "notes=a longer note"},
	"contenteditable":          {role: "textbox", name: "Editor", kind: drivers.Fill, value: "rich text", echo: "editor=rich text"},
	"date":                     {role: "textbox", name: "Date", kind: drivers.Fill, value: "2026-12-01", echo: "date=2026-12-01"},
	"date as written":          {role: "textbox", name: "Date", kind: drivers.Fill, value: "1 December 2026", code: drivers.CodeBadInput},
	"time":                     {role: "textbox", name: "Time", kind: drivers.Fill, value: "14:30", echo: "time=14:30"},
	"datetime-local":           {role: "textbox", name: "Meeting", kind: drivers.Fill, value: "2026-12-01T14:30", echo: "meeting=2026-12-01T14:30"},
	"month":                    {role: "textbox", name: "Month", kind: drivers.Fill, value: "2026-12", echo: "month=2026-12"},
	"week":                     {role: "textbox", name: "Week", kind: drivers.Fill, value: "2026-W49", echo: "week=2026-W49"},
	"color":                    {role: "textbox", name: "Shade", kind: drivers.Fill, value: "#336699", echo: "shade=#336699"},
	"range":                    {role: "slider", name: "Volume", kind: drivers.Fill, value: "7", echo: "volume=7"},
	"range past max":           {role: "slider", name: "Volume", kind: drivers.Fill, value: "70", code: drivers.CodeBadInput},
	"select":                   {role: "combobox", name: "Size", kind: drivers.Select, values: []string{"Large"}, echo: "size=l"},
	"select multiple":          {role: "listbox", name: "Toppings", kind: drivers.Select, values: []string{"Ham", "basil"}, echo: "toppings=ham,basil"},
	"checkbox":                 {role: "checkbox", name: "Subscribe", kind: drivers.Click, echo: "subscribe=true"},
	"checkbox filled":          {role: "checkbox", name: "Subscribe", kind: drivers.Fill, value: "yes", code: drivers.CodeTargetMiss},
	"radio":                    {role: "radio", name: "Deep", kind: drivers.Click, echo: "crust=deep"},
	"aria combobox":            {role: "combobox", name: "City", kind: drivers.Fill, value: "Lon", echo: "city=Lon"},
	"in an iframe":             {role: "textbox", name: "Framed", kind: drivers.Fill, value: "framed text", echo: "framed=framed text"},
	"in a cross-origin iframe": {role: "textbox", name: "Far away", kind: drivers.Fill, value: "far text", echo: "faraway=far text"},
	"in a shadow root":         {role: "textbox", name: "Shadowed", kind: drivers.Fill, value: "shadowed text", echo: "shadowed=shadowed text"},
	"password":                 {role: "textbox", name: "Password", kind: drivers.Fill, value: "hunter2", code: messages.CodeCredential},
	"card number":              {role: "textbox", name: "Card number", kind: drivers.Fill, value: "4111111111111111", code: messages.CodeCredential},
	"card expiry":              {role: "textbox", name: "Expiry", kind: drivers.Fill, value: "12/29", code: messages.CodeCredential},
	"card security code":       {role: "textbox", name: "Security code", kind: drivers.Fill, value: "737", code: messages.CodeCredential},
	"one-time code":            {role: "textbox", name: "Sign-in code", kind: drivers.Fill, value: "492817", echo: "otp=492817", masked: true},
	"owner's secret in its own origin's password field": {role: "textbox", name: "Password", kind: drivers.SecretFill,
		value: "Own-secret-7731", secretFor: "page", echo: "password=Own-secret-7731", masked: true},
	"owner's secret in its own origin's text field": {role: "textbox", name: "Text", kind: drivers.SecretFill,
		value: "owner-text-5521", secretFor: "page", echo: "text=owner-text-5521", masked: true},
	"owner's secret for another origin": {role: "textbox", name: "Password", kind: drivers.SecretFill,
		value: "Own-secret-7731", secretFor: "far", code: messages.CodeSecretOrigin},
	"owner's secret into a cross-origin frame": {role: "textbox", name: "Far away", kind: drivers.SecretFill,
		value: "Own-secret-7731", secretFor: "page", code: messages.CodeSecretOrigin},
	"file": {role: "button", name: "Receipt", kind: drivers.Fill, value: "/etc/passwd", code: drivers.CodeTargetMiss},
}

// everyInput runs every input case on a fresh load of the inputs page.
func everyInput(t *testing.T, d drivers.Driver, site Site) {
	tabs := Open(t, d, "dt-inputs")
	for name, c := range inputCases {
		t.Run(name, func(t *testing.T) {
			Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: site.Inputs})
			obs, err := tabs.Observe(ctx(t), drivers.ObserveOptions{Find: &drivers.Query{Role: c.role, Name: c.name, Exact: true}})
			if err != nil {
				t.Fatalf("find %s %q: %v", c.role, c.name, err)
			}
			a := &drivers.Action{Kind: c.kind, Target: Target(t, obs, c.role, c.name), Value: c.value, Values: c.values,
				Origins: c.origins(t, site.Inputs)}
			_, err = tabs.Do(ctx(t), a)
			if err == nil && c.echo != "" {
				// A frame tells its page by a message, which crosses
				// processes for a cross-origin frame: it may arrive
				// after the action's answer. What the page saw is
				// checked below, whatever this wait gave.
				_, _ = tabs.Do(ctx(t), &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "echo " + c.echo + ";"}})
			}
			c.check(t, err, echoed(t, tabs))
			if c.masked {
				c.checkMasked(t, tabs)
			}
		})
	}
}

// origins are the origins of c's owner's secret, served at inputs.
func (c inputCase) origins(t *testing.T, inputs string) []string {
	if c.secretFor == "" {
		return nil
	}
	u, err := url.Parse(inputs)
	if err != nil {
		t.Fatal(err)
	}
	if c.secretFor == "far" {
		return []string{u.Scheme + "://" + otherHost(u.Host)}
	}
	return []string{u.Scheme + "://" + u.Host}
}

// check fails unless the action on c's field did what c says: the
// page heard the value, or the action was refused with c's code in one
// sentence that does not quote the value, and nothing reached the page.
func (c inputCase) check(t *testing.T, err error, echo string) {
	t.Helper()
	switch {
	case c.code == "" && err != nil:
		t.Fatalf("%s on %s %q: %v", c.kind, c.role, c.name, err)
	case c.code == "" && !strings.Contains(echo, "echo "+c.echo+";"):
		t.Fatalf("%s on %s %q: the page's input event saw\n%s\nwant echo %s", c.kind, c.role, c.name, echo, c.echo)
	case c.code != "" && drivers.CodeOf(err) != c.code:
		t.Fatalf("%s on %s %q gave %v; want %s", c.kind, c.role, c.name, err, c.code)
	case c.code != "" && strings.Contains(echo, "echo "):
		t.Fatalf("the refused %s on %s %q reached the page:\n%s", c.kind, c.role, c.name, echo)
	case c.code != "" && (strings.Contains(refs.ReplaceAllString(sentence(err), "ref"), c.value) ||
		strings.Count(sentence(err), ". ") > 0 || !strings.HasSuffix(sentence(err), ".")):
		t.Fatalf("the refusal %q quotes the value or is not one sentence", sentence(err))
	}
}

// checkMasked fails if a read of c's field shows the value typed into it.
func (c inputCase) checkMasked(t *testing.T, tabs drivers.Tabs) {
	t.Helper()
	obs, err := tabs.Observe(ctx(t), drivers.ObserveOptions{Find: &drivers.Query{Role: c.role, Name: c.name, Exact: true}})
	if err != nil {
		t.Fatalf("find %s %q after the fill: %v", c.role, c.name, err)
	}
	if !strings.Contains(obs.Tree, c.name) {
		t.Fatalf("the read after the fill does not show %s %q:\n%s", c.role, c.name, obs.Tree)
	}
	if strings.Contains(obs.Tree, c.value) {
		t.Fatalf("a read of %s %q shows the value typed into it:\n%s", c.role, c.name, obs.Tree)
	}
}

// refs are the refs a sentence names: buddi's own ids, which may hold the
// digits of a value ("e70" for a value of 70) without quoting it.
var refs = regexp.MustCompile(`\be[0-9]+\b`)

// sentence is what an agent reads of err.
func sentence(err error) string {
	var c messages.Coded
	if !errors.As(err, &c) {
		return err.Error()
	}
	return c.Coded().Message
}

// echoed is what the inputs page says its fields' input events saw.
func echoed(t *testing.T, tabs drivers.Tabs) string {
	out := Do(t, tabs, &drivers.Action{Kind: drivers.DOM})
	var lines []string
	for _, l := range strings.Split(out.Text, "\n") {
		if i := strings.Index(l, "echo "); i >= 0 {
			lines = append(lines, strings.TrimSpace(l[i:]))
		}
	}
	return strings.Join(lines, "\n")
}
