package doctor

import (
	"fmt"
	"strings"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/messages"
)

// addrRow says what buddi exposes where: beyond this machine without TLS,
// its tokens cross the network in clear. It also flags a serve.json the CLI
// will not trust.
func addrRow(c config.Config, o Options) messages.DoctorRow {
	addr := c.Addr
	if o.Serving != nil {
		served, problem := o.Serving()
		if problem != "" {
			return row("address", Error, problem)
		}
		if served != "" {
			addr = served
		}
	}
	c.Addr = addr
	exposed := strings.Join(c.Exposure(), "; ")
	switch c.Binding() {
	case config.BindLoopback, config.BindTailnet, config.BindTLS:
		return row("address", OK, "buddi exposes "+exposed+".")
	}
	return row("address", Warning, fmt.Sprintf("buddi exposes %s; agent and owner tokens cross the network in clear there: serve on 127.0.0.1 with BUDDI_TAILNET=1, or give --tls-cert and --tls-key.", exposed))
}
