package playwright

import (
	"context"
	"strconv"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/messages"
)

// titleWait bounds reading one tab's title: a tab busy in its own script
// leaves its title out rather than holding up the answer.
const titleWait = 2 * time.Second

// titleExpr reads the title cut in the page, so that a title of megabytes
// never crosses to buddi. String() bounds what a page that redefines
// document.title returns.
var titleExpr = "String(document.title).slice(0, " + strconv.Itoa(drivers.MaxTitle) + ")"

// title is the page's title, cut in the page to drivers.MaxTitle, read
// over the tab's own DevTools session (no engine, no wait for the
// document): "" when the page does not answer within titleWait.
func (t *tab) title(ctx context.Context) string {
	s := t.session()
	if s == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, titleWait)
	defer cancel()
	v, err := call(ctx, func() (any, error) {
		return send(s, cdp.Evaluate{Expression: titleExpr, ReturnByValue: true})
	})
	if err != nil {
		return ""
	}
	m, _ := v.(map[string]any)
	r, _ := m["result"].(map[string]any)
	title, _ := r["value"].(string)
	return messages.Clip(title, drivers.MaxTitle)
}
