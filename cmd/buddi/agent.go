package main

import (
	"context"
	"fmt"

	"github.com/buddi-dev/buddi/apiclient"
)

func init() {
	register(&command{name: "agent", args: "add NAME [--auto-approve] [--mcp] | list | remove NAME",
		summary: "manage the agents that may use the browser", run: agent})
}

func agent(e *env, args []string) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprintln(e.stdout, "Usage: buddi agent add NAME [--auto-approve] [--mcp] | list | remove NAME\n\nadd prints the agent's token once (it is stored hashed); --auto-approve lets its browser.task requests start at once, still bounded by 80 steps and 20 minutes; --mcp prints, instead of the bare token, ready MCP client configurations with the token filled in and the conversation named after the agent.")
		return exitOK
	}
	switch args[0] {
	case "add":
		return agentAdd(e, args[1:])
	case "list":
		return ownerRun(e, "agent", args[1:], 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
			list, err := o.Agents(ctx)
			if err != nil {
				return err
			}
			tb := newTable(e.stdout, "NAME", "GRANTS", "AUTO-APPROVE")
			for _, a := range list {
				tb.row(a.Name, a.Grants, a.AutoApprove)
			}
			return tb.flush()
		})
	case "remove":
		return ownerRun(e, "agent", args[1:], 1, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
			if err := o.RemoveAgent(ctx, f.arg(0)); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Agent %s removed; its token no longer works, and its sessions and waiting requests have ended.\n", f.arg(0))
			return nil
		})
	}
	fmt.Fprintf(e.stderr, "buddi agent: %q is not a subcommand; use add, list or remove.\n", args[0])
	return exitUsage
}

func agentAdd(e *env, args []string) int {
	f := newFlags(e, "agent")
	auto := f.Bool("auto-approve", false, "start this agent's browser.task requests without asking")
	asMCP := f.Bool("mcp", false, "print ready MCP client configurations (stdio and HTTP) instead of the bare token")
	if code, ok := f.parse(args, 1); !ok {
		return code
	}
	o, err := ownerClient(f)
	if err != nil {
		return fail(e, "agent", "%s.", err)
	}
	ctx, cancel := ownerContext()
	defer cancel()
	out, err := o.AddAgent(ctx, f.arg(0), *auto)
	if err != nil {
		return fail(e, "agent", "%s", sentence(err))
	}
	fmt.Fprintf(e.stderr, "Agent %s added with browser.*. Its token is below; it is shown only this once.\n", out.Name)
	if *asMCP {
		newMCPSetup(o.Base(), f.cfg.PublicOrigin, out.Name, out.Token).print(e.stdout)
		return exitOK
	}
	fmt.Fprintln(e.stdout, out.Token)
	return exitOK
}
