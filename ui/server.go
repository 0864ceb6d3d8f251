package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lxzan/gws"
	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/metrics"
	"github.com/buddi-dev/buddi/ui/journal"
	"github.com/buddi-dev/buddi/ui/limit"
	"github.com/buddi-dev/buddi/ui/mcp"
	"github.com/buddi-dev/buddi/ui/origin"
	"github.com/buddi-dev/buddi/ui/web"
)

// Limits of the HTTP surface.
const (
	MaxBodyBytes  = 1 << 20
	toolDeadline  = messages.ToolDeadline
	ownerDeadline = 30 * time.Second
)

// Config is what the server needs.
type Config struct {
	Actors    Actors
	OwnerHash string
	Version   string
	Started   time.Time
	Log       *slog.Logger
	// Addr is the address served (host:port) and PublicOrigin the
	// BUDDI_WEB_PUBLIC_ORIGIN: the Host and Origin /mcp accepts.
	Addr         string
	PublicOrigin string
	// AccessLog logs one line per request at info level (else debug).
	AccessLog bool
	// Metrics is where /metrics reads from; the server adds its own
	// (dashboard and hand connections). Nil: a registry of its own.
	Metrics *metrics.Registry
	// Limiter counts failed sign-ins; pairing (Telegram, the extension)
	// shares it. Nil: one of its own.
	Limiter *limit.Limiter
	// Doctor checks the install for the settings page (nil: no rows).
	Doctor func(ctx context.Context) messages.DoctorRows
	// Now is the clock of sign-ins (nil: time.Now).
	Now func() time.Time
	// Telegram is the Telegram bot, for its pairing link; nil when none is
	// configured.
	Telegram TelegramBot

	// ExtensionIDs are the ids of the "Your browser" extension whose
	// Origin may open /api/extension/socket.
	ExtensionIDs []string

	// Reach says what the install lets the browser open now: /mcp's
	// browser_act description says it as it is when a session starts.
	Reach func() *messages.Reach

	// Audit reads the audit trail for /api/audit (nil: the route says
	// there is none).
	Audit func(ctx context.Context, f messages.AuditFilter) (messages.AuditList, error)

	// Secrets is the owner's vault for /api/secrets (nil: the routes say
	// there is none).
	Secrets OwnerSecrets

	// Record adds a line to the audit trail for what the surface decides
	// itself: a failed sign-in, a change to the owner's secrets (nil: no
	// trail). The controls it passes to the actors are recorded there.
	Record func(*messages.AuditRecord)

	// Tailnet is buddi's node on the owner's tailnet (nil: off); its
	// listener is served with ServeTailnet.
	Tailnet Tailnet
}

// OwnerSecrets is the owner's vault as the dashboard manages it: names
// and origins are listed; a value is only ever written.
type OwnerSecrets interface {
	List() ([]messages.SecretInfo, error)
	Add(name string, origins []string, value string) error
	Remove(name string) error
}

// Server is the HTTP surface.
type Server struct {
	cfg      Config
	srv      *fasthttp.Server
	mcp      *mcp.Handler
	mcpRoute fasthttp.RequestHandler
	ln       net.Listener
	done     chan error
	// tailnetDone ends the tailnet listener's Serve; nil when not served.
	tailnetDone chan error

	origins origin.List
	assets  map[string]*web.Asset
	journal *journal.Journal
	links   *links
	sockets *sockets
	hands   *hands
	extUp   *gws.Upgrader
	// handCount counts live remote-hand sockets.
	handCount atomic.Int64
}

// New builds the server; Serve starts it. It fails when cfg.Addr or
// cfg.PublicOrigin cannot be read.
func New(cfg Config) (*Server, error) {
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.New()
	}
	if cfg.Limiter == nil {
		cfg.Limiter = limit.New(limit.Config{Local: []string{SignInLimitPrefix, OwnerLimitPrefix}})
	}
	if cfg.Record == nil {
		cfg.Record = func(*messages.AuditRecord) {}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, done: make(chan error, 1)}
	var err error
	if s.origins, err = origin.New(cfg.Addr, cfg.PublicOrigin); err != nil {
		return nil, err
	}
	if s.assets, err = web.Assets(); err != nil {
		return nil, fmt.Errorf("ui: the dashboard's files: %w", err)
	}
	if s.mcp, s.mcpRoute, err = s.newMCP(); err != nil {
		return nil, err
	}
	s.links = newLinks(cfg.Now)
	s.sockets = newSockets(s)
	s.hands = newHands(s)
	s.extUp = newExtUpgrader(s)
	s.registerMetrics()
	s.srv = &fasthttp.Server{
		Handler:               s.logged(s.recovered(s.gated(s.route))),
		Name:                  "buddi",
		MaxRequestBodySize:    MaxBodyBytes,
		ReadTimeout:           15 * time.Second,
		WriteTimeout:          toolDeadline + 5*time.Second,
		IdleTimeout:           90 * time.Second,
		NoDefaultServerHeader: true,
		NoDefaultDate:         true,
		// ReduceMemoryUsage stays off: a kept-alive connection keeps its
		// buffers (4 KB to read, 4 KB to write, and the bodies') between
		// requests, where with it on each request pays a one-byte read
		// before the rest and gets its buffers from the pools again: 3.09
		// read syscalls per act against 2.07 (stop 57).
		ErrorHandler: func(ctx *fasthttp.RequestCtx, err error) {
			writeError(ctx, &messages.Error{Code: messages.CodeBadRequest, Message: "The request could not be read: " + firstLine(err.Error())})
		},
	}
	return s, nil
}

// Serve starts the journal and serving on ln, in goroutines.
func (s *Server) Serve(ln net.Listener) {
	s.journal = journal.Start(s.cfg.Actors)
	s.ln = ln
	go func() { s.done <- s.srv.Serve(ln) }()
}

// Shutdown stops accepting, closes the dashboard's sockets, waits for
// requests in flight until ctx ends, then closes the rest, and ends the MCP
// sessions and the journal.
func (s *Server) Shutdown(ctx context.Context) error {
	defer s.mcp.Close()
	if s.ln == nil {
		return nil
	}
	defer s.journal.Close()
	s.sockets.closeAll()
	s.hands.closeAll()
	err := s.srv.ShutdownWithContext(ctx)
	// A Serve that had not started yet when the shutdown came would start
	// on the open listener and never end: closing it ends Serve either way.
	_ = s.ln.Close()
	for _, done := range []chan error{s.done, s.tailnetDone} {
		if done == nil {
			continue
		}
		select {
		case <-done:
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		}
	}
	return err
}

// gated attributes every request on the tailnet listener before next
// sees it (see tailnetGate).
func (s *Server) gated(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		if s.cfg.Tailnet != nil && onTailnet(ctx) {
			if e := s.tailnetGate(ctx); e != nil {
				refuseTailnet(ctx, e)
				return
			}
		}
		next(ctx)
	}
}

func (s *Server) route(ctx *fasthttp.RequestCtx) {
	if name, ok := bytes.CutPrefix(ctx.Path(), []byte("/api/tools/")); ok {
		s.tool(ctx, toolName(name)) // the agents' hot path: no path string made
		return
	}
	path := string(ctx.Path())
	switch {
	case path == "/healthz":
		s.health(ctx)
	case path == "/mcp":
		s.mcpOver(ctx)
	case path == "/metrics":
		s.metrics(ctx)
	case path == "/api/browser/hand":
		s.hand(ctx)
	case path == "/api/extension/socket":
		s.extensionSocket(ctx)
	case path == "/api/session" || path == "/api/events":
		s.session(ctx, path)
	case strings.HasPrefix(path, "/api/"):
		s.ownerRoute(ctx, path)
	default:
		s.static(ctx, path)
	}
}

// toolName is name as one of messages.Tools, without a copy, or as a
// string of its own when it names no tool.
func toolName(name []byte) string {
	for _, t := range messages.Tools {
		if string(name) == t {
			return t
		}
	}
	return string(name)
}

func (s *Server) logged(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	level := slog.LevelDebug
	if s.cfg.AccessLog {
		level = slog.LevelInfo
	}
	return func(ctx *fasthttp.RequestCtx) {
		start := time.Now()
		next(ctx)
		if s.cfg.Log.Enabled(context.Background(), level) {
			s.cfg.Log.Log(context.Background(), level, "http",
				"method", string(ctx.Method()), "path", string(ctx.Path()),
				"status", ctx.Response.StatusCode(), "ms", time.Since(start).Milliseconds(),
				"bytes", len(ctx.Response.Body()), "remote", ctx.RemoteIP().String())
		}
	}
}

// recovered turns a panic in a handler into a 500 with one sentence and a
// log line, instead of letting it end the daemon.
func (s *Server) recovered(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		defer func() {
			if r := recover(); r != nil {
				s.cfg.Log.Error("handler panicked", "path", string(ctx.Path()), "panic", fmt.Sprint(r),
					"stack", string(debug.Stack()))
				ctx.ResetBody()
				writeError(ctx, &messages.Error{Code: messages.CodeInternal,
					Message: "buddi hit an internal error handling this request; it is logged, and nothing was done."})
			}
		}()
		next(ctx)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
