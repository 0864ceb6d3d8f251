package main

import (
	"context"
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
)

func init() {
	register(&command{name: "open", summary: "print a new one-time link that signs a browser in to the dashboard", run: open})
}

func open(e *env, args []string) int {
	return ownerRun(e, "open", args, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
		l, err := o.SignInLink(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "Sign in to the dashboard: %s\n(the link works once, for %d minutes)\n",
			l.URL, int(time.Until(l.Expires).Round(time.Minute).Minutes()))
		return nil
	})
}
