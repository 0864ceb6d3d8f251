//go:build !tailnet

package daemon

import "github.com/buddi-dev/buddi/config"

// TailnetLinked says whether this binary links Tailscale (-tags tailnet).
const TailnetLinked = false

func startNode(*wiring) (node, error) {
	return nil, config.Invalid("this buddi was built without the tailnet (it adds Tailscale to the binary); build one with `make build TAGS=tailnet` (go build -tags tailnet ./cmd/buddi), or unset BUDDI_TAILNET")
}
