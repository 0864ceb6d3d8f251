package messages

import "strings"

// Surface is where the owner of a refused call answers it: the sentence
// that tells the agent what the owner can do names the way back on that
// surface. The edge that decodes a call knows its surface and sets it; a
// conversation the owner bound to Telegram answers there whatever the
// edge (see Over).
type Surface string

// Surfaces.
const (
	SurfaceCLI       Surface = ""          // the HTTP API and MCP: the owner uses the buddi CLI
	SurfaceDashboard Surface = "dashboard" // the dashboard's chat
	SurfaceTelegram  Surface = "telegram"  // a paired Telegram chat
)

// WayBack names how the owner lifts what code stands for (stopped, paused,
// air_gap), for conversation conv, on surface s; "" for other codes.
func (s Surface) WayBack(code Code, conv string) string {
	switch code {
	case CodeStopped:
		return s.pick("Resume access on the dashboard's Host browser page, or `buddi resume --all`", "Resume access on the Host browser page", "/browser resume in their Telegram chat with buddi")
	case CodePaused:
		return s.pick("`buddi resume "+conv+"`", "Resume access on this conversation's Browser tab", "/browser resume in their Telegram chat with buddi")
	case CodeAirGap:
		return s.pick("turn air-gap off in the dashboard's Settings → Privacy & Safety", "turn air-gap off in Settings → Privacy & Safety", "turn air-gap off in the dashboard's Settings → Privacy & Safety")
	}
	return ""
}

// Over is where a call that came in on call answers, when its conversation
// is bound to s: Telegram while bound there, the call's own surface
// otherwise ("" is bound to nothing).
func (s Surface) Over(call Surface) Surface {
	if s == SurfaceTelegram {
		return s
	}
	return call
}

func (s Surface) pick(cli, dashboard, telegram string) string {
	switch s {
	case SurfaceDashboard:
		return dashboard
	case SurfaceTelegram:
		return telegram
	}
	return cli
}

// Stopped is the refusal an agent reads while the owner's Stop holds.
func (s Surface) Stopped() *Error {
	return Errorf(CodeStopped, "The owner stopped all browser access; wait until the owner resumes it (%s).", s.WayBack(CodeStopped, ""))
}

// Paused is the refusal an agent reads while its session is paused.
func (s Surface) Paused(conv, reason string) *Error {
	return Errorf(CodePaused, "The session is paused (%s); ask the owner to resume access (%s), then observe again.", reason, s.WayBack(CodePaused, conv))
}

// airGapByEnv is the way back from an air-gap BUDDI_AIR_GAP sets, on
// every surface: the dashboard cannot turn it off.
const airGapByEnv = "restart buddi without BUDDI_AIR_GAP"

// AirGapWayBack is an air-gap refusal e with the way back on surface s
// added (a restart when byEnv: BUDDI_AIR_GAP set it), unless it already
// names one.
func AirGapWayBack(e *Error, s Surface, byEnv bool) *Error {
	way := s.WayBack(CodeAirGap, "")
	if byEnv {
		way = airGapByEnv
	}
	if e == nil || e.Code != CodeAirGap || strings.Contains(e.Message, way) {
		return e
	}
	c := *e
	c.Message = strings.TrimSuffix(c.Message, ".") + " (" + way + ")."
	return &c
}
