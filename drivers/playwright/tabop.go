package playwright

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
)

// tabOp lists, opens, switches or closes the conversation's tabs.
func (ts *Tabs) tabOp(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	switch a.TabOp {
	case "list", "":
	case "new":
		if _, err := ts.openTab(ctx); err != nil {
			return nil, err
		}
	case "switch":
		t, err := ts.byID(a.TabID)
		if err != nil {
			return nil, err
		}
		_ = do(ctx, func() error { return t.page.BringToFront() })
	case "close":
		t, err := ts.byID(a.TabID)
		if err != nil {
			return nil, err
		}
		if err := t.close(ctx); err != nil {
			return nil, t.failed(err, notAnswering)
		}
		ts.forget(t)
	default:
		return nil, badInput("The tab action takes op list, new, switch or close.")
	}
	out := &drivers.Outcome{Result: drivers.Done, Tabs: ts.list(ctx, nil, ""), Changed: a.TabOp != "list" && a.TabOp != ""}
	if t, err := ts.current(); err == nil {
		out.URL = t.page.URL()
	}
	return out, nil
}
