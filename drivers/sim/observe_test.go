package sim_test

import (
	"bytes"
	"context"
	"image/jpeg"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

var refRE = regexp.MustCompile(`\[ref=(e\d+)\]`)

// checkRefs fails unless Refs holds exactly the refs in Tree, each with a
// fingerprint naming the page.
func checkRefs(t *testing.T, obs *drivers.Observation) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range refRE.FindAllStringSubmatch(obs.Tree, -1) {
		seen[m[1]] = true
		tg, ok := obs.Refs[m[1]]
		if !ok || tg.Ref != m[1] || !strings.HasPrefix(tg.Fingerprint, obs.URL+"#"+m[1]+"#") {
			t.Fatalf("ref %s: %+v", m[1], tg)
		}
	}
	if len(seen) != len(obs.Refs) {
		t.Fatalf("%d refs in the tree, %d in Refs", len(seen), len(obs.Refs))
	}
}

func TestObserveBounds(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/7")
	for name, tc := range map[string]struct {
		opts      drivers.ObserveOptions
		truncated bool
		maxLen    int
	}{
		"viewport":  {drivers.ObserveOptions{}, false, 4_000},
		"full page": {drivers.ObserveOptions{FullPage: true}, false, 40_000},
		"max chars": {drivers.ObserveOptions{FullPage: true, MaxChars: 500}, true, 500},
	} {
		t.Run(name, func(t *testing.T) {
			obs, err := tabs.Observe(context.Background(), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if obs.Truncated != tc.truncated || len(obs.Tree) > tc.maxLen || !strings.HasSuffix(obs.Tree, "\n") {
				t.Fatalf("truncated=%v len=%d:\n%s", obs.Truncated, len(obs.Tree), obs.Tree)
			}
			checkRefs(t, obs)
		})
	}
}

func TestObserveOutlinesTheRest(t *testing.T) {
	_, tabs := open(t, sim.Config{Elements: 200})
	navigate(t, tabs, "https://sim.localhost/p/7")
	obs, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(obs.Tree, "below the viewport:") || !strings.Contains(obs.Tree, `contentinfo [ref=`) {
		t.Fatalf("no outline of what lies below:\n%s", obs.Tree)
	}
	checkRefs(t, obs)
}

func TestReadsArePagedToTheEnd(t *testing.T) {
	_, tabs := open(t, sim.Config{Elements: 200})
	navigate(t, tabs, "https://sim.localhost/p/7")
	opts := drivers.ObserveOptions{FullPage: true, MaxChars: 2000}
	var all strings.Builder
	for part := 0; ; part++ {
		if part > 100 {
			t.Fatal("no end")
		}
		obs, err := tabs.Observe(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString(obs.Tree)
		if obs.Continues == nil {
			break
		}
		if !obs.Continues.FullPage || obs.Continues.Left <= 0 {
			t.Fatalf("continuation %+v", obs.Continues)
		}
		opts.After = obs.Of(obs.Refs[obs.Continues.After])
	}
	if !strings.Contains(all.String(), "(c) sim.localhost") || strings.Count(all.String(), "- link ") < 190 {
		t.Fatalf("the parts do not hold the whole page:\n%s", all.String())
	}
}

func TestFindAndWithin(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/7")
	found, err := tabs.Observe(context.Background(), drivers.ObserveOptions{Find: &drivers.Query{Role: "navigation"}})
	if err != nil || !strings.Contains(found.Tree, "1 matches") || !strings.Contains(found.Tree, "in: banner") {
		t.Fatalf("find: %v\n%v", err, found)
	}
	nav := found.Of(found.Refs[refRE.FindStringSubmatch(found.Tree)[1]])
	in, err := tabs.Observe(context.Background(), drivers.ObserveOptions{Within: nav})
	if err != nil || !strings.Contains(in.Tree, `link "Catalog"`) || strings.Contains(in.Tree, `link "Home"`) {
		t.Fatalf("within the navigation: %v\n%v", err, in)
	}
}

func TestObserveScreenshot(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	obs, err := tabs.Observe(context.Background(), drivers.ObserveOptions{Screenshot: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(obs.Screenshot))
	if err != nil || cfg.Width != 1280 || cfg.Height != 800 {
		t.Fatalf("screenshot %dx%d: %v", cfg.Width, cfg.Height, err)
	}
}

func TestScreenshotAction(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	for full, edge := range map[bool]int{false: 1280, true: 4096} {
		out := do(t, tabs, &drivers.Action{Kind: drivers.Screenshot, FullRes: full})
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(out.Image))
		if err != nil || cfg.Width != edge || out.Width != edge || out.Height != cfg.Height {
			t.Fatalf("full=%v: outcome %dx%d, image %dx%d: %v", full, out.Width, out.Height, cfg.Width, cfg.Height, err)
		}
	}
}

func TestObservationStampsNow(t *testing.T) {
	_, tabs := open(t, sim.Config{Now: func() time.Time { return time.Unix(42, 0) }})
	if got := observe(t, tabs).TakenAt; !got.Equal(time.Unix(42, 0)) {
		t.Fatalf("TakenAt = %v", got)
	}
}

// Reads share their buffers and an observation of the same nodes hands out
// the same refs: an observation taken earlier keeps its own text and refs
// through later reads of other pages and parts, and each later one holds
// exactly its own tree's refs.
func TestObservationsKeepTheirOwnTextAndRefs(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	ctx := context.Background()
	navigate(t, tabs, "https://sim.localhost/p/3")
	first, err := tabs.Observe(ctx, drivers.ObserveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tree, refs := strings.Clone(first.Tree), map[string]drivers.Element{}
	for k, v := range first.Refs {
		refs[k] = v
	}
	again, err := tabs.Observe(ctx, drivers.ObserveOptions{})
	if err != nil || again.Tree != tree || len(again.Refs) != len(refs) {
		t.Fatalf("the same view read again differs (%v):\n%s", err, again.Tree)
	}
	checkRefs(t, again)
	for _, read := range []struct {
		url  string
		opts drivers.ObserveOptions
	}{
		{"https://sim.localhost/p/3", drivers.ObserveOptions{FullPage: true}},
		{"https://sim.localhost/form/2", drivers.ObserveOptions{}},
		{"https://sim.localhost/p/8", drivers.ObserveOptions{FullPage: true, MaxChars: 700}},
	} {
		navigate(t, tabs, read.url)
		obs, err := tabs.Observe(ctx, read.opts)
		if err != nil {
			t.Fatal(err)
		}
		checkRefs(t, obs)
		if obs.Tree == tree {
			t.Fatalf("%s read as the first page did", read.url)
		}
	}
	if first.Tree != tree || len(first.Refs) != len(refs) {
		t.Fatalf("the first observation changed after later reads:\n%s", first.Tree)
	}
	for k, v := range refs {
		if first.Refs[k] != v {
			t.Fatalf("the first observation's ref %s changed: %+v, was %+v", k, first.Refs[k], v)
		}
	}
}
