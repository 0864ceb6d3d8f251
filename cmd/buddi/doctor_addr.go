package main

import (
	"errors"
	"fmt"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
)

// addrRow says where buddi serves: beyond this machine, its tokens cross
// the network in plain HTTP. It also flags a serve.json the CLI will not
// trust.
func addrRow(c config.Config) row {
	addr := c.Addr
	inst, err := daemon.ReadInstance(c.DataDir)
	switch {
	case errors.Is(err, daemon.ErrUntrustedInstance):
		return row{"address", failed, err.Error()[len("daemon: "):] + "."}
	case err == nil:
		addr = inst.Addr
	}
	if config.Loopback(addr) {
		return row{"address", ok, "buddi serves on " + addr + ", this machine only."}
	}
	return row{"address", warning, fmt.Sprintf("buddi serves on %s, beyond this machine, over plain HTTP: agent and owner tokens cross the network in clear unless a tailnet or a TLS proxy carries them; serve on 127.0.0.1 where you can.", addr)}
}
