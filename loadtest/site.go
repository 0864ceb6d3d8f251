package loadtest

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/buddi-dev/buddi/drivers/sim"
)

// site is where agents browse: the simulated site, or the harness's own
// pages on loopback for a real browser. Both have link pages /p/N and form
// pages /form/N.
type site struct {
	origin string
	pages  int
}

func simSite(pages int) site { return site{origin: sim.Origin, pages: pages} }

// random is a link or form page.
func (s site) random(rng *rand.Rand) string {
	n := strconv.Itoa(rng.IntN(s.pages))
	if rng.IntN(3) == 0 {
		return s.origin + "/form/" + n
	}
	return s.origin + "/p/" + n
}

// path is url's path on this site, or "" for any other page.
func (s site) path(url string) string {
	p, ok := strings.CutPrefix(url, s.origin)
	if !ok {
		return ""
	}
	return p
}
