package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
)

// ConversationHeader names the conversation of every call of an MCP
// session over HTTP, as `buddi mcp --conversation` does over stdio.
const ConversationHeader = "Buddi-Conversation"

// HTTPConfig configures the streamable HTTP endpoint of `buddi serve`.
type HTTPConfig struct {
	Backend      Backend
	Addr         string // host:port buddi serves at
	PublicOrigin string // BUDDI_WEB_PUBLIC_ORIGIN, if set
	Version      string
	Log          *slog.Logger // nil: the SDK logs nothing
	// Reach says what the install lets the browser open now; browser_act's
	// description says it, as it is when each session starts (nil: the
	// description says nothing of it).
	Reach func() *messages.Reach
	// Now is the clock of the rate at which an agent opens sessions (nil:
	// time.Now).
	Now func() time.Time
}

// Handler serves MCP over streamable HTTP (the /mcp endpoint). Each request
// must pass the guard (Host and Origin) and carry an agent token as a
// bearer; a session stays bound to the agent that opened it.
type Handler struct {
	srv   *Server
	guard guard
	ids   Backend
	live  *sessions
	next  http.Handler
}

var _ http.Handler = (*Handler)(nil)

// NewHandler builds the /mcp handler; it returns an error when cfg.Addr or
// cfg.PublicOrigin cannot be read.
func NewHandler(cfg HTTPConfig) (*Handler, error) {
	g, err := newGuard(cfg.Addr, cfg.PublicOrigin)
	if err != nil {
		return nil, err
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	var reach *messages.Reach
	if cfg.Reach != nil {
		reach = cfg.Reach()
	}
	srv, err := newServer(cfg.Backend, "", "", cfg.Version, reach)
	if err != nil {
		return nil, err
	}
	// Answers are plain JSON, not event streams: every tool call has one
	// answer and the server sends nothing unasked, and JSON passes intact
	// through any HTTP stack, fasthttp's adaptor included. The guard does
	// the SDK's localhost check, and also accepts the public origin's host,
	// which a reverse proxy on loopback passes on.
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { srv.follow(cfg.Reach); return srv.mcp },
		&mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: SessionIdle, Logger: cfg.Log,
			DisableLocalhostProtection: true})
	bound := auth.RequireBearerToken(proven, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	return &Handler{srv: srv, guard: g, ids: cfg.Backend, live: newSessions(srv.mcp, cfg.Now), next: bound(sdk)}, nil
}

// ServeHTTP checks the request, proves its bearer and hands it to the SDK.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e := h.guard.check(r); e != nil {
		refuse(w, http.StatusForbidden, e)
		return
	}
	if r.Method == http.MethodGet {
		// No event stream to listen on: the spec lets a server answer 405,
		// and clients then just post.
		w.Header().Set("Allow", "POST, DELETE")
		refuse(w, http.StatusMethodNotAllowed, &messages.Error{Code: CodeMethodNotAllowed,
			Message: "buddi sends nothing unasked over MCP; post requests to this address."})
		return
	}
	token, ok := bearer(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="buddi"`)
		refuse(w, http.StatusUnauthorized, &messages.Error{Code: messages.CodeUnauthorized, Message: "Send the agent token as " +
			"`Authorization: Bearer <token>`; `buddi agent add NAME --mcp` prints it with a ready configuration."})
		return
	}
	agent, err := h.ids.Identify(r.Context(), token)
	if err != nil {
		var e *messages.Error
		if !errors.As(err, &e) {
			e = errInternal()
		}
		status := http.StatusServiceUnavailable
		if e.Code == messages.CodeUnauthorized {
			status = http.StatusUnauthorized
			w.Header().Set("WWW-Authenticate", `Bearer realm="buddi", error="invalid_token"`)
		}
		refuse(w, status, e)
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), identityKey{}, identity{agent, token}))
	if r.Method == http.MethodPost && r.Header.Get(sessionHeader) == "" {
		h.open(w, r, agent)
		return
	}
	h.next.ServeHTTP(w, r)
}

// sessionHeader names the MCP session of a request; a POST without it
// opens a session.
const sessionHeader = "Mcp-Session-Id"

// open serves a POST without a session: an initialize opens a session,
// within the agent's and the install's bounds; anything else is answered
// by the SDK with a session that ends with the request (a client asking
// whether buddi serves without sessions, say).
func (h *Handler) open(w http.ResponseWriter, r *http.Request, agent string) {
	id, body, initialize, e := readOpen(r)
	if e != nil {
		refuseOpen(w, http.StatusRequestEntityTooLarge, id, e)
		return
	}
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	if !initialize { // the SDK answers it with a session that ends with the request
		h.next.ServeHTTP(w, r)
		return
	}
	done, status, e := h.live.reserve(agent)
	if e != nil {
		if e.Code == messages.CodeMCPTooFast {
			w.Header().Set("Retry-After", strconv.Itoa(int(OpenEvery/time.Second)))
		}
		refuseOpen(w, status, id, e)
		return
	}
	h.next.ServeHTTP(w, r)
	done(w.Header().Get(sessionHeader))
}

// Close ends every MCP session; the daemon calls it once it stopped serving.
func (h *Handler) Close() {
	for ss := range h.srv.mcp.Sessions() {
		_ = ss.Close()
	}
}

// identity is what ServeHTTP proved of a request's bearer.
type identity struct{ agent, token string }

type identityKey struct{}

// tokenKey holds the raw token in auth.TokenInfo.Extra, for tokenOf.
const tokenKey = "buddi.token"

// proven hands the SDK the identity ServeHTTP already proved. Its UserID
// binds each session to the agent that opened it: the SDK refuses the
// session's requests from any other agent.
func proven(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
	id, ok := ctx.Value(identityKey{}).(identity)
	if !ok {
		return nil, fmt.Errorf("%w: the bearer was not checked", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: id.agent, Extra: map[string]any{tokenKey: id.token}}, nil
}

func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != ""
}

// refuse answers with one plain sentence after the stable code.
func refuse(w http.ResponseWriter, status int, e *messages.Error) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, "%s: %s\n", e.Code, e.Message)
}
