package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

func init() {
	register(&command{name: "sessions", summary: "list the browser sessions and their state", run: sessions})
	register(&command{name: "takeover", args: "CONVERSATION", summary: "pause a conversation's agent and take its browser over", run: control("takeover")})
	register(&command{name: "resume", args: "CONVERSATION | --all", summary: "hand a session back to its agent, or lift a Stop with --all", run: resume})
	register(&command{name: "release", args: "CONVERSATION", summary: "end a conversation's session and close its tabs", run: control("release")})
	register(&command{name: "move", args: "CONVERSATION NEW-ID", summary: "move a conversation's session and task to a new conversation id (the conversation rolled over)", run: move})
	register(&command{name: "stop", summary: "stop all browser access (kept across restarts until `buddi resume --all`)", run: stop})
}

// ownerRun parses flags, builds the client and runs fn.
func ownerRun(e *env, name string, args []string, positional int, fn func(context.Context, *flags, *apiclient.Owner) error) int {
	f := newFlags(e, name)
	if code, ok := f.parse(args, positional); !ok {
		return code
	}
	o, err := ownerClient(f)
	if err != nil {
		return fail(e, name, "%s.", err)
	}
	ctx, cancel := ownerContext()
	defer cancel()
	if err := fn(ctx, f, o); err != nil {
		return fail(e, name, "%s", sentence(err))
	}
	return exitOK
}

func sentence(err error) string {
	var me *messages.Error
	if errors.As(err, &me) {
		return me.Message + " (" + string(me.Code) + ")"
	}
	s := err.Error()
	if s != "" && s[len(s)-1] != '.' {
		s += "."
	}
	return s
}

func sessions(e *env, args []string) int {
	return ownerRun(e, "sessions", args, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
		list, err := o.Sessions(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			fmt.Fprintln(e.stdout, "No sessions.")
			return nil
		}
		tb := newTable(e.stdout, "CONVERSATION", "AGENT", "STATE", "STEPS", "EXPIRES", "URL")
		for _, s := range list {
			state := s.State
			if s.PauseReason != "" {
				state += " (" + s.PauseReason + ")"
			}
			tb.row(s.Conversation, s.Agent, state, fmt.Sprintf("%d/%d", s.StepsUsed, s.StepsMax),
				s.Expires.Local().Format(time.Kitchen), s.URL)
		}
		return tb.flush()
	})
}

func control(action string) func(*env, []string) int {
	return func(e *env, args []string) int {
		return ownerRun(e, action, args, 1, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
			info, err := o.Control(ctx, action, f.arg(0))
			if err != nil {
				return err
			}
			if action == "release" {
				fmt.Fprintf(e.stdout, "%s released: its task ended and its tabs are closed.\n", info.Conversation)
				return nil
			}
			fmt.Fprintf(e.stdout, "%s: %s.\n", info.Conversation, info.State)
			return nil
		})
	}
}

func resume(e *env, args []string) int {
	f := newFlags(e, "resume")
	all := f.Bool("all", false, "lift the Stop on all browser access")
	if code, ok := f.parse(args, -1); !ok {
		return code
	}
	if *all == (len(f.pos) == 1) || len(f.pos) > 1 {
		fmt.Fprintln(e.stderr, "buddi resume: give either one CONVERSATION or --all; run `buddi resume --help`.")
		return exitUsage
	}
	o, err := ownerClient(f)
	if err != nil {
		return fail(e, "resume", "%s.", err)
	}
	ctx, cancel := ownerContext()
	defer cancel()
	if *all {
		err = o.ResumeAll(ctx)
	} else {
		_, err = o.Control(ctx, "resume", f.arg(0))
	}
	if err != nil {
		return fail(e, "resume", "%s", sentence(err))
	}
	if *all {
		fmt.Fprintln(e.stdout, messages.ResumedWords)
	} else {
		fmt.Fprintf(e.stdout, "%s handed back; its agent must observe again before acting.\n", f.arg(0))
	}
	return exitOK
}

func stop(e *env, args []string) int {
	return ownerRun(e, "stop", args, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
		out, err := o.Stop(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, messages.StoppedWords(out.Sessions, "`buddi resume --all`"))
		return nil
	})
}

func move(e *env, args []string) int {
	return ownerRun(e, "move", args, 2, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
		out, err := o.Move(ctx, f.arg(0), f.arg(1))
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s moved to %s; calls on %s are refused from now on, and its agent must observe again before acting.\n", out.From, out.To, out.From)
		return nil
	})
}
