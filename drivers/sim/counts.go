package sim

import (
	"sync/atomic"

	"github.com/buddi-dev/buddi/drivers"
)

// Counts tallies the input dispatched to pages, by kind. An input that
// failed with input_uncertain is counted: it may have half happened.
type Counts struct {
	Click, Fill, Select, Press, Hover, Scroll, Submit int64
	// Submissions counts forms submitted, whichever input submitted them.
	Submissions int64
}

// Total is the number of inputs of every kind.
func (c Counts) Total() int64 {
	return c.Click + c.Fill + c.Select + c.Press + c.Hover + c.Scroll + c.Submit
}

// Of is the number of inputs of kind k; 0 for kinds that are not input.
func (c Counts) Of(k drivers.Kind) int64 {
	switch k {
	case drivers.Click:
		return c.Click
	case drivers.Fill:
		return c.Fill
	case drivers.Select:
		return c.Select
	case drivers.Press:
		return c.Press
	case drivers.Hover:
		return c.Hover
	case drivers.Scroll:
		return c.Scroll
	case drivers.Submit:
		return c.Submit
	}
	return 0
}

func (c *Counts) add(k drivers.Kind) {
	switch k {
	case drivers.Click:
		c.Click++
	case drivers.Fill:
		c.Fill++
	case drivers.Select:
		c.Select++
	case drivers.Press:
		c.Press++
	case drivers.Hover:
		c.Hover++
	case drivers.Scroll:
		c.Scroll++
	case drivers.Submit:
		c.Submit++
	}
}

// totals is the driver-wide tally, updated without a lock.
type totals struct {
	click, fill, sel, press, hover, scroll, submit, submissions atomic.Int64
}

func (t *totals) add(k drivers.Kind) {
	switch k {
	case drivers.Click:
		t.click.Add(1)
	case drivers.Fill:
		t.fill.Add(1)
	case drivers.Select:
		t.sel.Add(1)
	case drivers.Press:
		t.press.Add(1)
	case drivers.Hover:
		t.hover.Add(1)
	case drivers.Scroll:
		t.scroll.Add(1)
	case drivers.Submit:
		t.submit.Add(1)
	}
}

func (t *totals) load() Counts {
	return Counts{
		Click: t.click.Load(), Fill: t.fill.Load(), Select: t.sel.Load(),
		Press: t.press.Load(), Hover: t.hover.Load(), Scroll: t.scroll.Load(),
		Submit: t.submit.Load(), Submissions: t.submissions.Load(),
	}
}
