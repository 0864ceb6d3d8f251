package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

func init() {
	register(&command{name: "sites", args: "[revoke SITE]",
		summary: "list your answers about sites (approvals, rejections), or revoke one", run: sites})
	register(&command{name: "logins", args: "[signout SITE|--all]",
		summary: "list the sites signed in to in the agents' browser, or sign out of one or all", run: logins})
}

func sites(e *env, args []string) int {
	return ownerRun(e, "sites", args, -1, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
		switch {
		case len(f.pos) == 2 && f.arg(0) == "revoke":
			r, err := o.RevokeSite(ctx, f.arg(1))
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%s: removed %d answers; agents are asked again next time.\n", r.Site, r.Removed)
			return nil
		case len(f.pos) != 0:
			return usageErr("expected nothing or `revoke SITE`; `buddi sites` lists the sites")
		}
		list, err := o.Sites(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(e.stdout, "You have approved or rejected no site.")
			return nil
		}
		tb := newTable(e.stdout, "SITE", "ANSWER", "CONVERSATION", "QUERY")
		for _, g := range list {
			tb.row(g.Site, g.Scope, g.Conversation, g.Query)
		}
		return tb.flush()
	})
}

func logins(e *env, args []string) int {
	all := false
	for i, a := range args {
		if a == "--all" {
			all = true
			args = append(args[:i:i], args[i+1:]...)
			break
		}
	}
	return ownerRun(e, "logins", args, -1, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
		switch {
		case len(f.pos) >= 1 && f.arg(0) == "signout":
			return signOut(ctx, e, f, o, all)
		case len(f.pos) != 0 || all:
			return usageErr("expected nothing, or `signout SITE` or `signout --all`")
		}
		return listLogins(ctx, e, o)
	})
}

func signOut(ctx context.Context, e *env, f *flags, o *apiclient.Owner, all bool) error {
	site := ""
	switch {
	case len(f.pos) == 2 && !all:
		site = f.arg(1)
	case len(f.pos) != 1 || !all:
		return usageErr("name one site, `buddi logins signout SITE`, or sign out of all with `buddi logins signout --all`")
	}
	out, err := o.SignOut(ctx, site)
	if err != nil {
		return err
	}
	if len(out.Sites) == 0 {
		fmt.Fprintln(e.stdout, "No site held a login.")
		return nil
	}
	fmt.Fprintf(e.stdout, "Signed out of %s.\n", strings.Join(out.Sites, ", "))
	return nil
}

func listLogins(ctx context.Context, e *env, o *apiclient.Owner) error {
	list, err := o.Logins(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "No site holds a login in the agents' browser.")
		return nil
	}
	tb := newTable(e.stdout, "SITE", "COOKIES", "STORED DATA")
	for _, l := range list {
		stored := "no"
		if l.Storage {
			stored = "yes"
		}
		tb.row(l.Site, fmt.Sprint(l.Cookies), stored)
	}
	return tb.flush()
}

// usageErr is a command's arguments refused, in one sentence.
func usageErr(msg string) error {
	return &messages.Error{Code: messages.CodeBadInput, Message: strings.ToUpper(msg[:1]) + msg[1:] + "."}
}
