package doctor

import (
	"fmt"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/messages"
)

// addrRow says where buddi serves: beyond this machine, its tokens cross
// the network in plain HTTP. It also flags a serve.json the CLI will not
// trust.
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
	if config.Loopback(addr) {
		return row("address", OK, "buddi serves on "+addr+", this machine only.")
	}
	return row("address", Warning, fmt.Sprintf("buddi serves on %s, beyond this machine, over plain HTTP: agent and owner tokens cross the network in clear unless a tailnet or a TLS proxy carries them; serve on 127.0.0.1 where you can.", addr))
}
