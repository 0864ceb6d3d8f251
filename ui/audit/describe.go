package audit

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/buddi-dev/buddi/messages"
)

// Bounds of a line's free fields.
const (
	maxURL    = 512
	maxTarget = 160
	maxDetail = 240
)

// Act describes one agent call and its answer. Of the input it reads only
// the action, the target and a navigation's URL: a fill's or a type's
// value, a key pressed, options chosen and a task's words stay out.
// It gives the record itself, not a pointer: the trail copies it into its
// batch, so an act's record needs no memory of its own.
func Act(agent string, c *messages.ToolCall, tr *messages.ToolResult, e *messages.Error) messages.AuditRecord {
	r := messages.AuditRecord{Kind: messages.AuditAct, Agent: agent, Conversation: c.Conversation,
		Action: strings.TrimPrefix(c.Tool, "browser."), Code: messages.AuditOK}
	if in := c.Act; in != nil {
		r.Action, r.Target = in.Action, target(in.Target)
		for _, s := range in.Steps {
			if s != nil {
				r.Steps = append(r.Steps, s.Action)
			}
		}
		r.URL = pageURL(in.URL)
	}
	switch {
	case e != nil:
		r.Code = e.Code
	case tr == nil:
		r.Code = messages.CodeInternal
	case tr.Error != nil:
		r.Code = tr.Error.Code
	default:
		if u := answerURL(tr.Result); u != "" {
			r.URL = pageURL(u)
		}
	}
	return r
}

// target names the element of an act: its ref, its pixel, or how it was
// found (an accessible name, label or text the agent chose from the page).
func target(t *messages.TargetRef) string {
	switch {
	case t == nil:
		return ""
	case t.Ref != "":
		return messages.Clip(t.Ref, maxTarget)
	case t.X != nil && t.Y != nil:
		return "pixel " + strconv.Itoa(*t.X) + "," + strconv.Itoa(*t.Y)
	}
	s := t.By
	if t.Role != "" {
		s += " " + t.Role
	}
	if t.Name != "" {
		s += " " + strconv.Quote(t.Name)
	}
	return messages.Clip(strings.TrimSpace(s), maxTarget)
}

// answerURL is the page an answer says the act left on screen.
func answerURL(a messages.Answer) string {
	switch v := a.(type) {
	case *messages.Observation:
		return v.URL
	case *messages.Outcome:
		return v.URL
	case *messages.ScriptResult:
		for i := len(v.Steps) - 1; i >= 0; i-- {
			if v.Steps[i].URL != "" {
				return v.Steps[i].URL
			}
		}
	}
	return ""
}

// pageURL is u without its query, fragment and user info, which may
// carry a one-time code or a token. Most addresses have none of them and
// nothing that parsing would write otherwise: those are kept as they are,
// unparsed (parsing one each time was most of what a line cost).
func pageURL(u string) string {
	switch {
	case u == "":
		return ""
	case plainURL(u):
		return messages.Clip(u, maxURL)
	}
	return stripURL(u)
}

// plainURL says u is an http or https address, its scheme in lower case,
// whose host is a name or an IPv4 address with an optional port and whose
// path holds only characters a path keeps as they are (and %-escapes):
// stripURL gives such an address back unchanged.
func plainURL(u string) bool {
	rest, ok := strings.CutPrefix(u, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(u, "http://"); !ok {
			return false
		}
	}
	host, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	return plainHost(host) && plainPath(path)
}

// plainHost: letters, digits, dots and dashes, then perhaps a colon and a
// port's digits.
func plainHost(h string) bool {
	name, port, withPort := strings.Cut(h, ":")
	if name == "" || withPort && port == "" {
		return false
	}
	for i := range len(name) {
		if c := name[i]; !alnum(c) && c != '.' && c != '-' {
			return false
		}
	}
	for i := range len(port) {
		if c := port[i]; c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// plainPath: letters, digits, -._~/:;=$&+, and well-formed %-escapes.
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case alnum(c), strings.IndexByte("-._~/:;=$&+,", c) >= 0:
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// stripURL is pageURL by parsing u: what it writes of any address.
func stripURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return messages.Clip(strings.SplitN(strings.SplitN(u, "?", 2)[0], "#", 2)[0], maxURL)
	}
	p.RawQuery, p.Fragment, p.RawFragment, p.User, p.ForceQuery = "", "", "", nil, false
	return messages.Clip(p.String(), maxURL)
}

// Control describes one owner control, or is nil for a read (a list, a
// view, a lookup), which the trail does not keep. A control it does not
// know is kept by its type's name alone. Its code is AuditOK until
// Answered says otherwise.
func Control(msg any) *messages.AuditRecord {
	r := control(msg)
	if r == nil {
		return nil
	}
	r.Kind, r.Code = messages.AuditControl, messages.AuditOK
	r.Detail = messages.Clip(r.Detail, maxDetail)
	return r
}

// Answered sets r's code from the control's reply, and its agent from a
// task or session the reply names when r has none yet (a task decided
// before any session ran).
func Answered(r *messages.AuditRecord, reply *messages.OwnerReply) {
	switch {
	case reply == nil:
		r.Code = messages.CodeInternal
		return
	case reply.Error != nil:
		r.Code = reply.Error.Code
	}
	if r.Agent != "" {
		return
	}
	switch v := reply.Result.(type) {
	case *messages.TaskView:
		r.Agent = v.Agent
	case *messages.SessionInfo:
		r.Agent = v.Agent
	}
}

func control(msg any) *messages.AuditRecord {
	if isRead(msg) {
		return nil
	}
	if r := conversationControl(msg); r != nil {
		return r
	}
	if r := accessControl(msg); r != nil {
		return r
	}
	if r := browserControl(msg); r != nil {
		return r
	}
	return &messages.AuditRecord{Action: strings.TrimPrefix(fmt.Sprintf("%T", msg), "*messages.")}
}

// isRead reports whether msg only reads: the trail keeps what changed.
func isRead(msg any) bool {
	switch msg.(type) {
	case *messages.ListTasks, *messages.ListSessions, *messages.Screenshots, *messages.ListAgents,
		*messages.ListSiteRequests, *messages.GetHealth, *messages.ListSites, *messages.ListLogins,
		*messages.GetInstall, *messages.GetSettings, *messages.FindDevice, *messages.ListDevices,
		*messages.SnapshotOf, *messages.GetTelegram, *messages.GetExtension, *messages.GetPermissions,
		*messages.Identify, *messages.ExtensionOpen:
		return true
	}
	return false
}

// conversationControl describes the controls of one conversation.
func conversationControl(msg any) *messages.AuditRecord {
	switch m := msg.(type) {
	case *messages.StartTask:
		return &messages.AuditRecord{Action: "start_task", Agent: m.Agent, Conversation: m.Conversation,
			Detail: "steps " + strconv.Itoa(m.Steps)}
	case *messages.DecideTask:
		return &messages.AuditRecord{Action: pick(m.Accept, "accept_task", "refuse_task"), Conversation: m.Conversation}
	case *messages.TakeOver:
		return &messages.AuditRecord{Action: "take_over", Conversation: m.Conversation}
	case *messages.Resume:
		return &messages.AuditRecord{Action: "give_back", Conversation: m.Conversation}
	case *messages.Release:
		return &messages.AuditRecord{Action: "release", Conversation: m.Conversation, Detail: m.Why}
	case *messages.HandOpen:
		return &messages.AuditRecord{Action: "open_hand", Conversation: m.Conversation}
	case *messages.DecideSite:
		return &messages.AuditRecord{Action: "answer_site", Conversation: m.Conversation, Detail: m.Site + " " + m.Decision}
	case *messages.OpenBrowser:
		return &messages.AuditRecord{Action: "open_browser", Conversation: m.Conversation, URL: pageURL(m.URL)}
	case *messages.BindTelegram:
		return &messages.AuditRecord{Action: pick(m.Bound, "bind_telegram", "unbind_telegram"), Conversation: m.Conversation}
	case *messages.MoveSession:
		return &messages.AuditRecord{Action: "move", Conversation: m.Conversation, Detail: "to " + m.To}
	}
	return nil
}

// accessControl describes who may reach the install: the Stop, agents,
// sign-ins and pairings. A pairing's code and a device's token are never
// read.
func accessControl(msg any) *messages.AuditRecord {
	switch m := msg.(type) {
	case *messages.StopAll:
		return &messages.AuditRecord{Action: "stop"}
	case *messages.ResumeAll:
		return &messages.AuditRecord{Action: "resume_all"}
	case *messages.AddAgent:
		return &messages.AuditRecord{Action: "add_agent", Agent: m.Name}
	case *messages.RemoveAgent:
		return &messages.AuditRecord{Action: "remove_agent", Agent: m.Name}
	case *messages.AddDevice:
		return &messages.AuditRecord{Action: "sign_in", Detail: m.Device.Label + " " + m.Device.ID}
	case *messages.RemoveDevice:
		return &messages.AuditRecord{Action: "sign_out", Detail: m.ID}
	case *messages.PairTelegram:
		return &messages.AuditRecord{Action: "pair_telegram", Detail: m.Name}
	case *messages.UnpairTelegram:
		return &messages.AuditRecord{Action: "unpair_telegram"}
	case *messages.PairExtension:
		return &messages.AuditRecord{Action: "pair_extension"}
	case *messages.ForgetExtension:
		return &messages.AuditRecord{Action: "forget_extension"}
	}
	return nil
}

// browserControl describes the controls of the browser: answers about
// sites, logins, settings, the install and the system's permissions.
func browserControl(msg any) *messages.AuditRecord {
	switch m := msg.(type) {
	case *messages.RevokeSite:
		return &messages.AuditRecord{Action: "revoke_site", Detail: m.Site}
	case *messages.SignOut:
		return &messages.AuditRecord{Action: "sign_out_site", Detail: pick(m.All, "every site", m.Site)}
	case *messages.ChangeSettings:
		return &messages.AuditRecord{Action: "change_settings", Detail: settingsChanged(m)}
	case *messages.InstallBrowser:
		return &messages.AuditRecord{Action: "install_browser"}
	case *messages.RequestPermissions:
		return &messages.AuditRecord{Action: "request_permissions"}
	}
	return nil
}

// settingsChanged lists the settings a change names, with their new values.
func settingsChanged(m *messages.ChangeSettings) string {
	var out []string
	add := func(name string, v any) { out = append(out, fmt.Sprintf("%s=%v", name, v)) }
	if m.Mode != nil {
		add("mode", *m.Mode)
	}
	if m.Channel != nil {
		add("channel", *m.Channel)
	}
	if m.Headless != nil {
		add("headless", *m.Headless)
	}
	if m.SiteApproval != nil {
		add("siteApproval", *m.SiteApproval)
	}
	if m.AirGap != nil {
		add("airGap", *m.AirGap)
	}
	if m.BrowserApp != nil {
		add("browserApp", *m.BrowserApp)
	}
	if m.AllowedApps != nil {
		add("allowedApps", strings.Join(*m.AllowedApps, ","))
	}
	return strings.Join(out, " ")
}

func pick(on bool, yes, no string) string {
	if on {
		return yes
	}
	return no
}
