package playwright_test

import (
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

func TestWaitFor(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Wait", `<script>
setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; b.textContent = 'Arrived late'; document.body.append(b) }, 300);
setTimeout(() => history.pushState({}, '', '/p/step-two'), 300);
</script>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	cases := map[string]*drivers.WaitCond{
		"selector": {Selector: "#late"},
		"text":     {Text: "Arrived late"},
		"url":      {URL: "step-two"},
		"load":     {Load: true},
	}
	for name, w := range cases {
		if out, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.WaitFor, Wait: w}); err != nil || out.Result != drivers.Done {
			t.Fatalf("%s: %+v %v", name, out, err)
		}
	}
	misses := map[string]*drivers.WaitCond{"selector": {Selector: "#never"}, "text": {Text: "never"}, "url": {URL: "never"}}
	for name, w := range misses {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.WaitFor, Wait: w, Timeout: 300 * time.Millisecond})
		wantCode(t, err, drivers.CodeTimeout)
		// The agent is told the limit it gave, not one rounded to seconds.
		if !strings.Contains(err.Error(), "within 300ms") {
			t.Errorf("%s: %v, want the limit of 300ms named", name, err)
		}
	}
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "a", URL: "b"}})
	wantCode(t, err, drivers.CodeBadInput)
}
