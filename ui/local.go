package ui

import (
	"context"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// localRoutes are the owner routes the server answers itself, from what
// only it holds: sign-in links and this browser's sign-out, the journal,
// the doctor's rows.
var localRoutes = map[string]func(s *Server, ctx *fasthttp.RequestCtx, who *caller, b *messages.OwnerBody){
	"POST /api/signin-links":          (*Server).newLink,
	"POST /api/session/signout":       (*Server).signOut,
	"POST /api/devices/signout":       (*Server).signOutDevice,
	"GET /api/devices":                (*Server).listDevices,
	"GET /api/timeline":               (*Server).timeline,
	"GET /api/conversations":          (*Server).conversations,
	"POST /api/browser/snapshot":      (*Server).snapshot,
	"GET /api/doctor":                 (*Server).doctor,
	"POST /api/extension/pair":        (*Server).pairExtension,
	"GET /api/audit":                  (*Server).trail,
	"GET /api/secrets":                (*Server).listSecrets,
	"POST /api/secrets":               (*Server).addSecret,
	"POST /api/secrets/remove":        (*Server).removeSecret,
	"GET /api/tailnet":                (*Server).tailnetInfo,
	"POST /api/tailnet/owners":        (*Server).addTailnetOwner,
	"POST /api/tailnet/owners/remove": (*Server).removeTailnetOwner,
}

func (s *Server) newLink(ctx *fasthttp.RequestCtx, _ *caller, _ *messages.OwnerBody) {
	l := s.SignInLink()
	writeOK(ctx, &l)
}

// signOut signs this browser out: its device is forgotten, its sockets
// closed, its cookie cleared.
func (s *Server) signOut(ctx *fasthttp.RequestCtx, who *caller, _ *messages.OwnerBody) {
	if who.device == nil {
		writeError(ctx, &messages.Error{Code: messages.CodeBadInput, Message: "The owner token is not a signed-in browser; sign devices out by id with /api/devices/signout."})
		return
	}
	s.removeDevice(ctx, who.device.ID)
	s.setCookie(ctx, "", 0)
}

func (s *Server) signOutDevice(ctx *fasthttp.RequestCtx, _ *caller, b *messages.OwnerBody) {
	msg, e := b.RemoveDevice()
	if e != nil {
		writeError(ctx, e)
		return
	}
	s.removeDevice(ctx, msg.(*messages.RemoveDevice).ID)
}

// removeDevice signs a device out and ends its sockets at once. A device
// the tailnet signed in takes its login off the owner's list too: else the
// next request from that login would sign it in again.
func (s *Server) removeDevice(ctx *fasthttp.RequestCtx, id string) {
	var login string
	if s.cfg.Tailnet != nil {
		r := s.tell(&messages.ListDevices{})
		list, _ := r.Result.(messages.DeviceList)
		for _, d := range list {
			if d.ID == id && d.Tailnet != nil {
				login = d.Tailnet.Login
			}
		}
	}
	r := s.tell(&messages.RemoveDevice{ID: id})
	if r.Error != nil {
		writeError(ctx, r.Error)
		return
	}
	s.sockets.closeDevice(id)
	s.hands.closeDevice(id)
	if login != "" {
		if err := s.cfg.Tailnet.RemoveOwner(login); err != nil {
			s.cfg.Log.Warn("tailnet: the signed-out device's login stays on the owner's list", "login", login, "err", err)
		} else {
			s.record(&messages.AuditRecord{Action: "tailnet_owner_removed", Detail: login})
			s.loginRemoved(login)
		}
	}
	writeOK(ctx, r.Result)
}

// listDevices marks the caller's own device in the list.
func (s *Server) listDevices(ctx *fasthttp.RequestCtx, who *caller, _ *messages.OwnerBody) {
	r := s.tell(&messages.ListDevices{})
	if r.Error != nil {
		writeError(ctx, r.Error)
		return
	}
	list, _ := r.Result.(messages.DeviceList)
	out := make(messages.DeviceList, len(list))
	for i, d := range list {
		d.Current = who.device != nil && d.ID == who.device.ID
		out[i] = d
	}
	writeOK(ctx, out)
}

func (s *Server) timeline(ctx *fasthttp.RequestCtx, _ *caller, _ *messages.OwnerBody) {
	conv := string(ctx.QueryArgs().Peek("conversation"))
	if e := messages.CheckConversation(conv); e != nil {
		writeError(ctx, e)
		return
	}
	tl, ok := s.journal.Timeline(conv)
	if !ok {
		tl = &messages.Timeline{Conversation: conv, Entries: []messages.TimelineEntry{}}
	}
	writeOK(ctx, tl)
}

func (s *Server) conversations(ctx *fasthttp.RequestCtx, _ *caller, _ *messages.OwnerBody) {
	writeOK(ctx, s.journal.Conversations())
}

// snapshot answers with the journal's last snapshot of the conversation,
// or asks its session for one (which takes one if it has none yet).
func (s *Server) snapshot(ctx *fasthttp.RequestCtx, _ *caller, b *messages.OwnerBody) {
	msg, e := b.Snapshot()
	if e != nil {
		writeError(ctx, e)
		return
	}
	// The session knows whether its newest picture still shows the page
	// (nobody drove it since) and takes a new one when not. The journal's
	// picture, the last one published, serves a conversation whose session
	// is gone (released, or ended by a restart).
	r := s.tell(msg)
	if r.Error != nil {
		if snap := s.journal.Snapshot(b.Conversation); snap != nil &&
			(r.Error.Code == messages.CodeNoSession || r.Error.Code == messages.CodeNotFound) {
			writeOK(ctx, snap)
			return
		}
		writeError(ctx, r.Error)
		return
	}
	writeOK(ctx, r.Result)
}

// doctorWait bounds the doctor's checks (one runs Playwright's driver).
const doctorWait = 20 * time.Second

func (s *Server) doctor(ctx *fasthttp.RequestCtx, _ *caller, _ *messages.OwnerBody) {
	if s.cfg.Doctor == nil {
		writeOK(ctx, messages.DoctorRows{})
		return
	}
	c, cancel := context.WithTimeout(context.Background(), doctorWait)
	defer cancel()
	writeOK(ctx, s.cfg.Doctor(c))
}
