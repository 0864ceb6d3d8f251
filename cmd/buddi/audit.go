package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

func init() {
	register(&command{name: "audit", summary: "show the audit trail: every agent act and owner control, newest last", run: auditCmd})
}

// auditFlags are audit's own flags.
type auditFlags struct {
	since, until string
	filter       messages.AuditFilter
	jsonOut      bool
}

func auditCmd(e *env, args []string) int {
	f := newFlags(e, "audit")
	var af auditFlags
	f.StringVar(&af.filter.Agent, "agent", "", "only this agent's acts and the controls of its conversations")
	f.StringVar(&af.filter.Conversation, "conversation", "", "only this conversation")
	f.StringVar(&af.since, "since", "", "only lines from this time on: RFC 3339 (2026-01-02T15:04:05Z) or a duration ago (90m, 24h)")
	f.StringVar(&af.until, "until", "", "only lines before this time, written as --since is")
	f.IntVar(&af.filter.Limit, "limit", messages.AuditDefaultLimit, fmt.Sprintf("at most this many of the newest lines (1 to %d)", messages.AuditMaxLimit))
	f.BoolVar(&af.jsonOut, "json", false, "print JSON lines, as the trail keeps them, instead of a table")
	if code, ok := f.parse(args, 0); !ok {
		return code
	}
	now := time.Now()
	var err error
	if af.filter.Since, err = auditTime("since", af.since, now); err != nil {
		return usageFail(e, "audit", err.Error())
	}
	if af.filter.Until, err = auditTime("until", af.until, now); err != nil {
		return usageFail(e, "audit", err.Error())
	}
	if af.filter.Limit < 1 || af.filter.Limit > messages.AuditMaxLimit {
		return usageFail(e, "audit", fmt.Sprintf("--limit must be from 1 to %d (bad_input).", messages.AuditMaxLimit))
	}
	o, err := ownerClient(f)
	if err != nil {
		return fail(e, "audit", "%s.", err)
	}
	ctx, cancel := ownerContext()
	defer cancel()
	if err := printAudit(ctx, e, o, &af); err != nil {
		return fail(e, "audit", "%s", sentence(err))
	}
	return exitOK
}

// auditTime reads a time flag: RFC 3339, or a duration before now.
func auditTime(name, v string, now time.Time) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--%s must be a time like 2026-01-02T15:04:05Z or a duration ago like 90m (bad_input)", name)
}

func printAudit(ctx context.Context, e *env, o *apiclient.Owner, af *auditFlags) error {
	list, err := o.Audit(ctx, af.filter)
	if err != nil {
		return err
	}
	if af.jsonOut {
		enc := json.NewEncoder(e.stdout)
		for i := range list {
			if err := enc.Encode(&list[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "The audit trail has no line that matches.")
		return nil
	}
	tb := newTable(e.stdout, "TIME", "AGENT", "CONVERSATION", "ACTION", "TARGET", "CODE", "URL OR DETAIL")
	for _, r := range list {
		action := r.Action
		if len(r.Steps) > 0 {
			action += " (" + strings.Join(r.Steps, ",") + ")"
		}
		tb.row(r.At.Local().Format("2006-01-02 15:04:05"), dash(r.Agent), dash(r.Conversation), action,
			dash(r.Target), r.Code, dash(strings.TrimSpace(r.URL+" "+r.Detail)))
	}
	return tb.flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
