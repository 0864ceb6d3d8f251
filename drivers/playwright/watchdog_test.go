package playwright_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// hostile are pages that stop answering, each its own way, once loaded.
var hostile = map[string]string{
	"spin":     `<script>setTimeout(() => { for (;;) {} }, 300)</script>`,
	"alerts":   `<script>setTimeout(() => { for (;;) alert('again') }, 300)</script>`,
	"memory":   `<script>setTimeout(() => { const a = []; for (;;) a.push(new Array(1 << 20).fill(1.5)) }, 300)</script>`,
	"dom":      `<script>setInterval(() => { for (let i = 0; i < 20000; i++) document.body.appendChild(document.createElement('div')).textContent = 'x' + i }, 5)</script>`,
	"console":  `<script>setTimeout(() => { for (;;) console.error('flood'.repeat(10000)) }, 300)</script>`,
	"navigate": `<script>setTimeout(() => { location.href = location.pathname + '?' + Math.random() }, 5)</script>`,
}

// Each hostile page is cut off: the call waiting on it, or the next, is
// told page_unresponsive with a sentence naming the tab, and the
// conversation keeps a blank tab that works.
func TestPagesThatStopAnsweringAreClosed(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	for name, body := range hostile {
		s.page("/"+name, name, body)
	}
	for name := range hostile {
		t.Run(name, func(t *testing.T) {
			tabs := openConv(t, d, t.Name())
			start := time.Now()
			_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/" + name})
			for i := 0; err == nil && i < 4; i++ {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				_, err = tabs.Observe(ctx, drivers.ObserveOptions{})
				cancel()
			}
			wantCode(t, err, drivers.CodeUnresponsive)
			var de *drivers.Error
			if !errors.As(err, &de) || !strings.Contains(de.Message, "tab t1") {
				t.Fatalf("the sentence does not name the tab: %v", err)
			}
			t.Logf("%s: %s after %v", name, de.Message, time.Since(start).Round(time.Millisecond))
			obs := observe(t, tabs, drivers.ObserveOptions{})
			if obs.URL != "about:blank" || len(obs.Tabs) != 1 {
				t.Fatalf("after the cut: %s, %d tabs", obs.URL, len(obs.Tabs))
			}
		})
	}
}
