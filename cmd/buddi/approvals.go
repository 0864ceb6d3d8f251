package main

import (
	"context"
	"fmt"

	"github.com/buddi-dev/buddi/apiclient"
)

func init() {
	register(&command{name: "approvals", summary: "list the sites agents are waiting for you to approve", run: approvals})
	register(&command{name: "approve", args: "CONVERSATION SITE once|always|reject",
		summary: "answer an agent's request to open a site (always is kept across restarts)", run: approve})
}

func approvals(e *env, args []string) int {
	return ownerRun(e, "approvals", args, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
		list, err := o.Approvals(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(e.stdout, "No site or app is waiting for approval.")
			return nil
		}
		// An app of Use my apps is listed as app:<id>, which approve takes.
		tb := newTable(e.stdout, "CONVERSATION", "AGENT", "SITE OR APP", "URL")
		for _, r := range list {
			tb.row(r.Conversation, r.Agent, r.Site, r.URL)
		}
		return tb.flush()
	})
}

func approve(e *env, args []string) int {
	return ownerRun(e, "approve", args, 3, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
		if err := o.Approve(ctx, f.arg(0), f.arg(1), f.arg(2)); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: %s for %s.\n", f.arg(1), f.arg(2), f.arg(0))
		return nil
	})
}
