package session

import (
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// maxCodes is how many typed one-time codes a session remembers to mask:
// a sign-in asks for one or two, and an old one no site echoes any more.
const maxCodes = 8

// maskCodes keeps the one-time codes in's fills typed (a fill the driver
// refused typed nothing, but is remembered all the same) and takes every
// code the session typed out of the addresses d brings back, before any
// of them is kept, answered or published. The codes live in memory only.
func (a *Actor) maskCodes(in *messages.ActInput, d *done) {
	a.rememberCode(in)
	if in != nil {
		for _, s := range in.Steps {
			a.rememberCode(s)
		}
	}
	if len(a.codes) == 0 {
		return
	}
	mask := func(u *string) { *u = egress.MaskTyped(*u, a.codes) }
	if o := d.obs; o != nil {
		mask(&o.URL)
		for i := range o.Tabs {
			mask(&o.Tabs[i].URL)
		}
	}
	if o := d.out; o != nil {
		mask(&o.URL)
		for i := range o.Tabs {
			mask(&o.Tabs[i].URL)
		}
	}
	for i := range d.script {
		mask(&d.script[i].URL)
	}
}

func (a *Actor) rememberCode(in *messages.ActInput) {
	if in == nil || in.Action != "fill" {
		return
	}
	code, ok := egress.LooksLikeCode(in.Value)
	if !ok {
		return
	}
	for _, c := range a.codes {
		if c == code {
			return
		}
	}
	a.codes = append(a.codes, code)
	if len(a.codes) > maxCodes {
		a.codes = a.codes[1:]
	}
}
