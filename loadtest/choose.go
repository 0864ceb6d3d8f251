package loadtest

import (
	"strconv"
	"strings"
)

// choose picks the next act from the latest observation: links are
// followed, forms filled and sent, and now and then a click names stale
// evidence on purpose.
func (a *agent) choose() (*act, bool) {
	pg, rng := a.pg, a.rng
	if a.r.cfg.StaleRate > 0 && len(pg.any) > 0 && rng.Float64() < a.r.cfg.StaleRate {
		return a.probe(), true
	}
	path := a.r.site.path(a.url)
	switch {
	case strings.HasPrefix(path, "/form/"):
		return a.fillForm(), false
	case strings.HasPrefix(path, "/p/"):
		return a.browse(), false
	}
	return &act{action: "navigate", url: a.r.site.random(rng)}, false
}

// probe is a click that must be refused: it names an older observation
// (stale_observation) or a ref no page has (stale_ref).
func (a *agent) probe() *act {
	pg := a.pg
	ref := pg.any[a.rng.IntN(len(pg.any))]
	if a.rng.IntN(2) == 0 {
		old := a.prev
		if old == "" || old == pg.id {
			old = "o0.1"
		}
		return &act{action: "click", observation: old, ref: ref}
	}
	return &act{action: "click", observation: pg.id, ref: "e99999"}
}

func (a *agent) browse() *act {
	pg, rng := a.pg, a.rng
	x := rng.Float64()
	switch {
	case x < 0.55 && len(pg.links) > 0:
		return &act{action: "click", observation: pg.id, ref: pick(rng, pg.links)}
	case x < 0.58 && len(pg.names) > 0:
		name := pg.name(pg.names[rng.IntN(len(pg.names))])
		return &act{action: "find", text: name[:min(len(name), 8)]}
	case x < 0.60 && len(pg.regions) > 0:
		return &act{action: "observe", within: pick(rng, pg.regions)}
	case x < 0.65:
		return &act{action: "hover", observation: pg.id, ref: pick(rng, pg.any)}
	case x < 0.72:
		return &act{action: "scroll", observation: pg.id, deltaY: 400}
	case x < 0.78:
		return &act{action: "press", observation: pg.id, key: "End"}
	case x < 0.92:
		return &act{action: "navigate", url: a.r.site.random(rng)}
	}
	return &act{action: "back"}
}

// fillForm fills a box, picks an option, ticks a box, or sends the form.
func (a *agent) fillForm() *act {
	pg, rng := a.pg, a.rng
	x := rng.Float64()
	switch {
	case x < 0.35 && len(pg.boxes) > 0:
		return &act{action: "fill", observation: pg.id, ref: pick(rng, pg.boxes),
			value: "load " + strconv.Itoa(rng.IntN(1000))}
	case x < 0.55 && len(pg.combos) > 0 && len(pg.combos[0].options) > 0:
		c := pg.combos[rng.IntN(len(pg.combos))]
		if len(c.options) > 0 {
			return &act{action: "select", observation: pg.id, ref: c.ref, values: pg.name(c.options[rng.IntN(len(c.options))])}
		}
	case x < 0.70 && len(pg.checks) > 0:
		return &act{action: "click", observation: pg.id, ref: pick(rng, pg.checks)}
	case x < 0.85 && len(pg.buttons) > 0:
		return &act{action: "submit", observation: pg.id, ref: pick(rng, pg.buttons)}
	case len(pg.links) > 0:
		return &act{action: "click", observation: pg.id, ref: pick(rng, pg.links)}
	}
	return &act{action: "navigate", url: a.r.site.random(rng)}
}

func pick(rng interface{ IntN(int) int }, s []string) string { return s[rng.IntN(len(s))] }
