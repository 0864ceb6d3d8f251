package webtest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/extension/chrometest"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

const storeListing = "https://chromewebstore.google.com/detail/" + extension.StoreID

// unpacked is the extension's source folder, as a developer loads it.
func unpacked(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "extension"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// chooseYourBrowser switches the mode in Computer & browser, then opens
// the Your browser section.
func chooseYourBrowser(t *testing.T, o *owner, p pw.Page) {
	t.Helper()
	goTo(t, o, p, "#/settings/browser")
	webtest.Click(t, p.Locator(`input[name=mode][value=extension]`))
	webtest.Visible(t, p.Locator(".said", pw.PageLocatorOptions{HasText: "The mode is now Your browser"}))
	goTo(t, o, p, "#/settings/yourbrowser")
}

func TestYourBrowserWithoutTheExtensionOffersItAndRefusesABadCode(t *testing.T) {
	folder := unpacked(t)
	o := start(t, daemon.Options{ExtensionDir: folder})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	goTo(t, o, p, "#/settings/yourbrowser")
	webtest.Visible(t, p.Locator(".yourbrowser .note", pw.PageLocatorOptions{HasText: "choose Your browser under"}))
	if n, _ := p.Locator(`input[name=code]`).Count(); n != 0 {
		t.Fatal("the pairing field shows while another mode is chosen")
	}

	chooseYourBrowser(t, o, p)
	webtest.Visible(t, p.Locator(".found", pw.PageLocatorOptions{HasText: "not installed in this browser"}))
	add := p.Locator("a", pw.PageLocatorOptions{HasText: "Add to Chrome"})
	webtest.Visible(t, add)
	if href, _ := add.GetAttribute("href"); href != storeListing {
		t.Fatalf("Add to Chrome opens %q, want the store listing", href)
	}
	if target, _ := add.GetAttribute("target"); target != "_blank" {
		t.Fatalf("Add to Chrome opens in %q, want a new tab", target)
	}
	shown := p.Locator("code.folder")
	if ok, _ := shown.IsVisible(); ok {
		t.Fatal("the developer install is not folded")
	}
	webtest.Click(t, p.Locator("summary", pw.PageLocatorOptions{HasText: "Developer install"}))
	webtest.Visible(t, shown)
	if got := strings.TrimSpace(text(t, shown)); got != folder {
		t.Fatalf("the developer install prints %q, want %q", got, folder)
	}
	webtest.Visible(t, p.Locator("li", pw.PageLocatorOptions{HasText: "chrome://extensions"}))
	webtest.Screenshot(t, p, "desktop-settings-yourbrowser")

	code := p.Locator(`input[name=code]`)
	pair := p.Locator("button", pw.PageLocatorOptions{HasText: "Pair"})
	if err := code.Fill("12ab"); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, pair)
	said(t, p.Locator("fieldset.pair"), "The pairing code is the six digits the extension shows.")
	if err := code.Fill("123456"); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, pair)
	said(t, p.Locator("fieldset.pair"), "No browser is showing a pairing code; press Connect")
	if n, _ := p.Locator("button", pw.PageLocatorOptions{HasText: "Forget this browser"}).Count(); n != 0 {
		t.Fatal("Forget this browser shows with no browser paired")
	}

	// On a phone the section fits, with touch-sized controls.
	phone := o.Page(t, 375, 812)
	o.SignIn(t, phone)
	goTo(t, o, phone, "#/settings/yourbrowser")
	webtest.Visible(t, phone.Locator(`input[name=code]`))
	fits(t, phone, "#/settings/yourbrowser")
	webtest.Screenshot(t, phone, "phone-settings-yourbrowser-extension")
}

// fits fails the test when the page scrolls sideways or has a control
// too small to touch (the phone test's measure).
func fits(t *testing.T, p pw.Page, route string) {
	t.Helper()
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
}

// ownersChrome is a headless Chromium of its own with the unpacked
// extension loaded, as the owner's Chrome would have it.
func ownersChrome(t *testing.T, dir string) pw.BrowserContext {
	t.Helper()
	bc := chrometest.Launch(t, dir)
	bc.SetDefaultTimeout(float64(webtest.Wait.Milliseconds()))
	return bc
}

func TestYourBrowserFindsTheExtensionInTheSameChromeAndFillsItsCode(t *testing.T) {
	dir := unpacked(t)
	m, err := extension.ReadManifest()
	if err != nil {
		t.Fatal(err)
	}
	// This buddi's version differs from the extension's, so the page says so.
	o := start(t, daemon.Options{ExtensionDir: dir, Version: "9.8.7"})
	bc := ownersChrome(t, dir)
	p, err := bc.NewPage()
	if err != nil {
		t.Fatal(err)
	}
	o.SignIn(t, p)
	chooseYourBrowser(t, o, p)

	// A fresh extension aims at the default address, not at this buddi's.
	webtest.Visible(t, p.Locator(".found", pw.PageLocatorOptions{HasText: "points at buddi at 127.0.0.1:7777"}))
	webtest.Visible(t, p.Locator(".found", pw.PageLocatorOptions{HasText: "change buddi's address to " + o.Addr()}))
	if n, _ := p.Locator("a", pw.PageLocatorOptions{HasText: "Add to Chrome"}).Count(); n != 0 {
		t.Fatal("Add to Chrome shows though the extension answered")
	}

	popup, err := bc.NewPage()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := popup.Goto("chrome-extension://" + extension.ID() + "/popup.html"); err != nil {
		t.Fatal(err)
	}
	if err := popup.Locator("#address").Fill(o.Addr()); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, popup.Locator("#connect"))
	webtest.Visible(t, popup.Locator("#pairing"))
	shown := strings.TrimSpace(text(t, popup.Locator("#code")))
	if len(shown) != 6 {
		t.Fatalf("the popup shows %q, want a six-digit code", shown)
	}

	webtest.Visible(t, p.Locator(".found", pw.PageLocatorOptions{HasText: "Extension found, version " + m.Version + "."}))
	webtest.Visible(t, p.Locator(".found .note", pw.PageLocatorOptions{HasText: "This buddi is 9.8.7 (9.8.7.0 as Chrome numbers it)"}))
	webtest.Visible(t, p.Locator(".note", pw.PageLocatorOptions{HasText: "The extension in this browser shows this code"}))
	if got, _ := p.Locator(`input[name=code]`).InputValue(); got != shown {
		t.Fatalf("the page filled in %q, the popup shows %q", got, shown)
	}
	webtest.Screenshot(t, p, "desktop-settings-yourbrowser-found")
	code := p.Locator(`input[name=code]`)
	pair := p.Locator("button", pw.PageLocatorOptions{HasText: "Pair"})
	wrong := "000000"
	if shown == wrong {
		wrong = "111111"
	}
	if err := code.Fill(wrong); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, pair)
	said(t, p.Locator("fieldset.pair"), "That is not the code the extension shows; check it and type it again.")
	if err := code.Fill(shown); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, pair)
	said(t, p.Locator("fieldset.pair"), "Paired: agents can work in this browser now.")
	webtest.Visible(t, p.Locator("fieldset.pair", pw.PageLocatorOptions{HasText: "This browser is already paired with buddi."}))
	v, err := o.API.Owner(o.Owner).Extension(context.Background())
	if err != nil || !v.Paired || v.ID != extension.ID() {
		t.Fatalf("after pairing buddi holds %+v (%v), want the unpacked extension paired", v, err)
	}
	webtest.Visible(t, popup.Locator("#paired"))

	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Forget this browser"}))
	said(t, p.Locator("fieldset.pair"), "This browser is forgotten")
	webtest.Visible(t, p.Locator(`input[name=code]`))
	if v, err := o.API.Owner(o.Owner).Extension(context.Background()); err != nil || v.Paired {
		t.Fatalf("after Forget buddi holds %+v (%v), want nothing paired", v, err)
	}
}

func TestYourBrowserNeedsAChromiumBrowserAndLeavesTheInstallOutOnAPhone(t *testing.T) {
	o := start(t, daemon.Options{}) // no unpacked extension next to the test's buddi
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	chooseYourBrowser(t, o, p)
	webtest.Visible(t, p.Locator(".found", pw.PageLocatorOptions{HasText: "not installed in this browser"}))
	webtest.Click(t, p.Locator("summary", pw.PageLocatorOptions{HasText: "Developer install"}))
	webtest.Visible(t, p.Locator("li", pw.PageLocatorOptions{HasText: "it was not found next to buddi"}))

	agents := map[string]struct{ ua, says string }{
		"firefox": {"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "needs Chrome, Edge, Brave or Arc"},
		"safari": {"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
			"needs Chrome, Edge, Brave or Arc"},
		"phone": {"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
			"runs in Chrome on a computer"},
	}
	for name, a := range agents {
		t.Run(name, func(t *testing.T) {
			bc, err := o.Browser.NewContext(pw.BrowserNewContextOptions{UserAgent: pw.String(a.ua),
				Viewport: &pw.Size{Width: 375, Height: 812}, IsMobile: pw.Bool(true), HasTouch: pw.Bool(true)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = bc.Close() })
			bc.SetDefaultTimeout(float64(webtest.Wait.Milliseconds()))
			p, err := bc.NewPage()
			if err != nil {
				t.Fatal(err)
			}
			o.SignIn(t, p)
			goTo(t, o, p, "#/settings/yourbrowser")
			webtest.Visible(t, p.Locator(".found", pw.PageLocatorOptions{HasText: a.says}))
			if n, _ := p.Locator(".install > *").Count(); n != 0 {
				t.Fatalf("the install shows in %s", name)
			}
			webtest.Visible(t, p.Locator(`input[name=code]`)) // pairing by typing the code still works from here
			fits(t, p, "#/settings/yourbrowser")
		})
	}
}
