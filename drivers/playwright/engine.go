package playwright

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers/walker"
)

// engineName is the selector engine the driver registers with Playwright. It
// runs as a content script, in Playwright's isolated (utility) world, so the
// page's scripts can neither see nor patch it. Its source is the
// package drivers/walker.
//
// Bodies:
//
//	ref eN           the element that carries ref eN (at most one)
//	ref eN WANT      the same, only while it is rendered and still the
//	                 element WANT (URI-encoded JSON elemInfo of an earlier
//	                 read) describes; otherwise the query throws
//	                 walker.Recheck (walker.CheckedRef)
//	fp e1 e2 ...     a carrier whose text is JSON {ref: elemInfo} for the found refs
//	observe ARGS     a carrier with a read (view, full, within, find) as JSON; ARGS
//	                 is URI-encoded JSON (readArgs)
//	text N           a carrier with the page's visible text, cut after N chars
//	masked           every field whose value reads mask (for screenshots)
//	focus            a carrier with where typed text would land in the frame
//	                 (focusState)
//	focusref eN      focus eN, then the same as focus
//	fill ARGS        focus ARGS.ref, check it is still the field ARGS.want
//	                 describes, and replace its text with ARGS.value, all in
//	                 one call, answering with the document's title after;
//	                 ARGS is URI-encoded JSON (with ARGS.checked, first check
//	                 the field as a checked ref does)
//	nav              a carrier with the document's navigation mark
//	                 (walker.NavMark), whether its focus is in a frame, and
//	                 its title (navState)
//
// A carrier is a detached element created for the answer; it is never
// inserted into the document.
const engineName = "buddi"

func registerEngine(p *pw.Playwright, rules json.RawMessage) error {
	err := p.Selectors.Register(engineName, pw.Script{Content: pw.String(walker.Source(rules))},
		pw.SelectorsRegisterOptions{ContentScript: pw.Bool(true)})
	if err != nil && !strings.Contains(err.Error(), "already registered") {
		return err
	}
	return nil
}

// refSelector locates the element carrying ref through the engine; it does
// not depend on which snapshot the frame took last.
func refSelector(ref string) string { return engineName + "=ref " + ref }

// readWait bounds one engine call on an idle machine; a busy one
// stretches it (underLoad).
const readWait = 5 * time.Second

// probe runs one carrier query in frame and decodes its JSON into v.
func probe(ctx context.Context, f pw.Frame, body string, v any) error {
	loc := f.Locator(engineName + "=" + body)
	txt, err := call(ctx, func() (string, error) {
		return loc.TextContent(pw.LocatorTextContentOptions{Timeout: ms(ctx, underLoad(readWait))})
	})
	if err != nil {
		return err
	}
	return decodeAnswer(body, txt, v)
}
