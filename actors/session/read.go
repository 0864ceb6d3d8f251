package session

import (
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// readOptions turns observe and find input into the driver's options. The
// refs of within and after must belong to the latest observation (refs, the
// evidence as it was when the call was dispatched); the driver then checks
// they still name the same page.
func readOptions(in *messages.ActInput, refs elements) (drivers.ObserveOptions, error) {
	opts := drivers.ObserveOptions{FullPage: in.FullPage, Screenshot: in.Screenshot, Rows: in.Rows}
	if in.Action == "find" { // the table's other RunObserve action: a search, not a read
		opts.Find = &drivers.Query{Text: in.Text, Role: in.Role, Name: in.Name, Exact: in.Exact}
		return opts, nil
	}
	for _, p := range []struct {
		ref string
		to  **drivers.Target
	}{{in.Within, &opts.Within}, {in.After, &opts.After}} {
		if p.ref == "" {
			continue
		}
		t, ok := refs.target(p.ref)
		if !ok {
			return opts, drivers.Errorf(drivers.CodeTargetGone, nil,
				"%s is not a ref of your latest observation; use a ref (or the continues object) from the newest one", p.ref)
		}
		*p.to = t
	}
	return opts, nil
}
