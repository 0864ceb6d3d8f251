package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
)

func init() {
	register(&command{name: "task", args: "start --agent A --conversation C [--steps 80] [--minutes 20] TEXT | list | accept C | refuse C",
		summary: "give an agent a bounded task, or decide one it asked for", run: task})
}

func task(e *env, args []string) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprintln(e.stdout, "Usage: buddi task start --agent A --conversation C [--steps 80] [--minutes 20] TEXT\n       buddi task list | accept C | refuse C\n\nOnly the owner mints tasks: at most 80 steps and 20 minutes each.")
		return exitOK
	}
	switch args[0] {
	case "start":
		return taskStart(e, args[1:])
	case "list":
		return ownerRun(e, "task", args[1:], 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
			list, err := o.Tasks(ctx)
			if err != nil {
				return err
			}
			tb := newTable(e.stdout, "CONVERSATION", "AGENT", "STATE", "STEPS", "TASK")
			for _, t := range list {
				tb.row(t.Conversation, t.Agent, t.State, t.MaxSteps, t.Description)
			}
			return tb.flush()
		})
	case "accept", "refuse":
		accept := args[0] == "accept"
		return ownerRun(e, "task", args[1:], 1, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
			t, err := o.DecideTask(ctx, f.arg(0), accept)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Task of %s is now %s.\n", t.Conversation, t.State)
			return nil
		})
	}
	fmt.Fprintf(e.stderr, "buddi task: %q is not a subcommand; use start, list, accept or refuse.\n", args[0])
	return exitUsage
}

func taskStart(e *env, args []string) int {
	f := newFlags(e, "task")
	agent := f.String("agent", "", "the agent that gets the task (required)")
	conv := f.String("conversation", "", "the conversation id (required)")
	steps := f.Int("steps", 80, "step budget, 1 to 80")
	minutes := f.Int("minutes", 20, "ownership lifetime in minutes, 1 to 20")
	if code, ok := f.parse(args, -1); !ok {
		return code
	}
	text := strings.TrimSpace(strings.Join(f.pos, " "))
	switch {
	case *agent == "" || *conv == "":
		fmt.Fprintln(e.stderr, "buddi task start: --agent and --conversation are required; run `buddi task --help`.")
		return exitUsage
	case text == "":
		fmt.Fprintln(e.stderr, "buddi task start: say what the agent should do, e.g. `buddi task start --agent a --conversation c \"find the opening hours\"`.")
		return exitUsage
	case *steps < 1 || *steps > 80:
		fmt.Fprintf(e.stderr, "buddi task start: --steps %d is out of range; use 1 to 80.\n", *steps)
		return exitUsage
	case *minutes < 1 || *minutes > 20:
		fmt.Fprintf(e.stderr, "buddi task start: --minutes %d is out of range; use 1 to 20.\n", *minutes)
		return exitUsage
	}
	o, err := ownerClient(f)
	if err != nil {
		return fail(e, "task", "%s.", err)
	}
	ctx, cancel := ownerContext()
	defer cancel()
	t, err := o.StartTask(ctx, *agent, *conv, text, *steps, *minutes)
	if err != nil {
		return fail(e, "task", "%s", sentence(err))
	}
	fmt.Fprintf(e.stdout, "Task started for %s in %s: %d steps until %s.\n", t.Agent, t.Conversation, t.MaxSteps, t.Expires.Local().Format(time.Kitchen))
	return exitOK
}
