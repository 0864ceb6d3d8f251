package playwright_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

func TestScreenshotIsCapped(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Shot", `<h1 style="height:3000px">tall</h1>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	for _, full := range []bool{false, true} {
		out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Screenshot, FullRes: full})
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(out.Image))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != out.Width || cfg.Height != out.Height || max(cfg.Width, cfg.Height) > 1280 || cfg.Width == 0 {
			t.Fatalf("full=%v: %dx%d reported as %dx%d", full, cfg.Width, cfg.Height, out.Width, out.Height)
		}
	}
	if obs := observe(t, tabs, drivers.ObserveOptions{Screenshot: true}); len(obs.Screenshot) == 0 {
		t.Fatal("observe sent no screenshot")
	}
}

// Larger captures (a wide viewport, a high-density screen) are scaled down
// to the cap.
func TestShrinkCapsTheLongestEdge(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3000, 1000))
	for x := range 3000 {
		img.Set(x, 500, color.White)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	var tall bytes.Buffer
	if err := jpeg.Encode(&tall, image.NewGray(image.Rect(0, 0, 900, 5000)), nil); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		src  []byte
		edge int
		want [2]int
	}{"wide": {buf.Bytes(), 1280, [2]int{1280, 426}}, "tall": {tall.Bytes(), 4096, [2]int{737, 4096}}}
	for name, c := range cases {
		edge, want := c.edge, c.want
		jpg, w, h, err := playwright.Shrink(c.src, edge)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := jpeg.DecodeConfig(bytes.NewReader(jpg))
		if w != want[0] || h != want[1] || cfg.Width != w || cfg.Height != h {
			t.Fatalf("%s: got %dx%d (%dx%d), want %v", name, w, h, cfg.Width, cfg.Height, want)
		}
	}
}

// domPage holds what a dom read must sanitise, flag and keep.
const domPage = `<style>p{color:red}</style><script>var secret = "script-body";</script>
<main><h1 onclick="steal()">Title</h1>
<a href="javascript:steal()">bad link</a> <a href="/next">good link</a>
<p style="display:none">gone-by-style</p><div hidden><span>gone-by-attribute</span></div>
<p style="visibility:hidden">invisible</p><p>seen &amp; <b>bold</b></p>
<label>Password <input type="password" value="hunter2-secret"></label><label>Name <input value="ada"></label>
<img src="x.png" onerror="steal()" alt="a picture">
<section id="part"><h2>Part</h2><p>only-this</p></section></main>`

// TestDOMIsSanitisedHTML: dom reads the page as HTML with no script or
// style bodies, no event handlers, no javascript: URLs and no password
// value; hidden elements are kept and flagged; a selector reads one part;
// the cap holds and closes what it opened.
func TestDOMIsSanitisedHTML(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "DOM", domPage)
	s.page("/long", "Long", `<p>`+strings.Repeat("word ", 3000)+`</p>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM}).Text
	cases := map[string]struct {
		text string
		want bool
	}{
		"the heading":                 {"<h1>Title</h1>", true},
		"a display:none element":      {`<p data-buddi-hidden>gone-by-style</p>`, true},
		"a hidden element":            {`<div hidden data-buddi-hidden><span>gone-by-attribute</span></div>`, true},
		"a visibility:hidden element": {`<p data-buddi-hidden>invisible</p>`, true},
		"text escaped":                {"seen &amp; <b>bold</b>", true},
		"an ordinary field's value":   {`value="ada"`, true},
		"a safe link":                 {`<a href="/next">good link</a>`, true},
		"a link without its script":   {"<a>bad link</a>", true},
		"a script's body":             {"script-body", false},
		"a style's body":              {"color:red", false},
		"an onclick attribute":        {"onclick", false},
		"an onerror attribute":        {"onerror", false},
		"a javascript: URL":           {"javascript:", false},
		"a style attribute":           {"style=", false},
		"a password's value":          {"hunter2", false},
	}
	for name, c := range cases {
		if strings.Contains(out, c.text) != c.want {
			t.Errorf("%s: %q in the dom read is %v, want %v:\n%s", name, c.text, !c.want, c.want, out)
		}
	}
	part := mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM, Selector: "#part"}).Text
	if part != `<section id="part"><h2>Part</h2><p>only-this</p></section>` {
		t.Fatalf("dom of #part read %q", part)
	}
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.DOM, Selector: "#nothing-here"})
	wantCode(t, err, drivers.CodeTargetMiss)
	_, err = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.DOM, Selector: "p[["})
	wantCode(t, err, drivers.CodeBadInput)

	navigate(t, tabs, s.URL+"/long")
	capped := mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM, MaxChars: 1000}).Text
	html, note, _ := strings.Cut(capped, "\n")
	if utf8.RuneCountInString(html) > 1000 || !strings.HasPrefix(html, "<body><p>word word") || !strings.HasSuffix(html, "</p></body>") || !strings.Contains(note, "cut at 1000 characters") {
		t.Fatalf("dom capped at 1000 (%d chars): %q", len(capped), capped)
	}
}

func TestConsoleErrors(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Console", `<script>console.log("fine"); console.error("boom one"); setTimeout(() => { throw new Error("boom two") }, 0)</script>`)
	tabs := openConv(t, d, t.Name())
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Console})
	if out.Text != "No console errors since the tab opened." {
		t.Fatalf("fresh tab: %q", out.Text)
	}
	navigate(t, tabs, s.URL+"/p")
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}})
	out = mustDo(t, tabs, &drivers.Action{Kind: drivers.Console})
	if !strings.Contains(out.Text, "console.error: boom one") || !strings.Contains(out.Text, "uncaught: ") || !strings.Contains(out.Text, "boom two") || strings.Contains(out.Text, "fine") {
		t.Fatalf("console: %q", out.Text)
	}
}

// A screenshot, the agent's or the owner's picture, leaves the page's
// elements as they are: hiding the text caret (Playwright's default)
// walks every element of every frame and restyles each field before the
// capture and again after it, and the next read of a long page waited for
// the styles to be worked out again.
func TestScreenshotLeavesFieldsAlone(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	watch := `<script>window.restyled = 0; new MutationObserver((ms) => { window.restyled += ms.length; }).observe(document, { attributes: true, attributeFilter: ['style'], subtree: true });</script>`
	s.page("/p", "Fields", watch+`<label>Note <input autofocus></label><textarea aria-label="Text"></textarea><iframe src="/framed"></iframe>`)
	s.page("/framed", "Framed", watch+`<label>Framed <input></label>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	page, err := playwright.ActivePage(tabs)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Frames()) != 2 {
		t.Fatalf("the page has %d frames, want its own and the framed one", len(page.Frames()))
	}
	for _, owner := range []bool{false, true} {
		if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Screenshot, Owner: owner}); len(out.Image) == 0 {
			t.Fatalf("owner=%v: no image", owner)
		}
		for _, f := range page.Frames() {
			n, err := f.Evaluate(`() => window.restyled`)
			if err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Fatalf("owner=%v: the screenshot changed the style of elements %v times in %s", owner, n, f.URL())
			}
		}
	}
}
