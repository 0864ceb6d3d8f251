package main

import (
	"context"
	"fmt"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

func init() {
	register(&command{name: "computer", args: "permissions [--request]",
		summary: "check what Use my apps' helper has here, or ask the system for what it lacks", run: computer})
}

// computer is `buddi computer permissions`: the running buddi's helper
// probe (which never prompts), or with --request its request for
// permissions, refused while any session is open.
func computer(e *env, args []string) int {
	f := newFlags(e, "computer")
	request := f.Bool("request", false, "ask the system for the missing permissions (macOS shows its prompts); only with no session open")
	if code, ok := f.parse(args, 1); !ok {
		return code
	}
	if f.arg(0) != "permissions" {
		return usageFail(e, "computer", "expected `permissions`; run `buddi computer --help`.")
	}
	o, err := ownerClient(f)
	if err != nil {
		return fail(e, "computer", "%s.", err)
	}
	ctx, cancel := ownerContext()
	defer cancel()
	p, err := permissions(ctx, o, *request)
	if err != nil {
		return fail(e, "computer", "%s", sentence(err))
	}
	tb := newTable(e.stdout, "CHECK", "OK", "DETAIL")
	for _, c := range p.Checks {
		tb.row(c.Name, yesNo(c.OK), c.Detail)
	}
	if len(p.Checks) > 0 {
		if err := tb.flush(); err != nil {
			return fail(e, "computer", "%s", err)
		}
	}
	fmt.Fprintln(e.stdout, p.Text)
	if !p.Ready {
		return exitFail
	}
	return exitOK
}

func permissions(ctx context.Context, o *apiclient.Owner, request bool) (messages.Permissions, error) {
	if request {
		return o.RequestPermissions(ctx)
	}
	return o.Permissions(ctx)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}
