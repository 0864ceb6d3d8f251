package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

// Server is an MCP server whose tools run through a [Caller]: the daemon's
// agent API over HTTP for `buddi mcp`, or the daemon's own actors for /mcp.
type Server struct {
	calls Caller
	token string // the agent token of every call; empty: each request's bearer
	fixed string // the conversation of every call; empty: one per session
	mcp   *mcp.Server

	mu    sync.Mutex
	convs map[*mcp.ServerSession]string // generated ids, one per session
	doc   string                        // browser_act's description as registered
	moves moves
}

// New validates cfg and builds the Server of `buddi mcp`, which forwards to
// the daemon at cfg.BaseURL. It returns [ErrNoToken] or a [*BaseURLError]
// when cfg cannot work.
func New(cfg Config) (*Server, error) {
	cfg, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	opts := []apiclient.Option{apiclient.WithUserAgent("buddi-mcp/" + cfg.Version)}
	if cfg.HTTPClient != nil {
		opts = append(opts, apiclient.WithHTTP(cfg.HTTPClient))
	}
	client, err := apiclient.New(cfg.BaseURL, opts...)
	if err != nil {
		return nil, &BaseURLError{URL: cfg.BaseURL}
	}
	fwd := &forwarder{client: client, timeout: cfg.Timeout}
	return newServer(fwd, cfg.Token, cfg.Conversation, cfg.Version, cfg.Reach)
}

func newServer(calls Caller, token, conversation, version string, reach *messages.Reach) (*Server, error) {
	s := &Server{
		calls: calls,
		token: token,
		fixed: conversation,
		mcp: mcp.NewServer(&mcp.Implementation{Name: "buddi", Title: "buddi browser", Version: version},
			&mcp.ServerOptions{Instructions: instructions}),
		convs: make(map[*mcp.ServerSession]string),
	}
	s.mcp.AddReceivingMiddleware(misnamed)
	if err := s.addTools(reach); err != nil {
		return nil, err
	}
	return s, nil
}

// Run serves one session on t until the client disconnects or ctx ends. A
// client hanging up, even while a call is answered, ends Run with nil; an
// ended ctx with ctx.Err().
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	if c, ok := s.calls.(interface{ closeIdle() }); ok {
		defer c.closeIdle()
	}
	defer s.forgetEnded()
	err := s.mcp.Run(ctx, t)
	if hungUp(err) {
		return nil
	}
	return err
}

// MCP returns the underlying SDK server, to connect other transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// conversation returns the session's conversation id, generating it on the
// session's first call.
func (s *Server) conversation(ss *mcp.ServerSession) string {
	s.mu.Lock()
	id, ok := s.convs[ss]
	s.mu.Unlock()
	if ok {
		return id
	}
	s.forgetEnded() // sessions come and go over HTTP: keep only live ones
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.convs[ss]; ok {
		return id
	}
	id = newConversation()
	s.convs[ss] = id
	return id
}

// forgetEnded drops the ids of sessions the SDK no longer serves.
func (s *Server) forgetEnded() {
	live := make(map[*mcp.ServerSession]bool)
	for ss := range s.mcp.Sessions() {
		live[ss] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss := range s.convs {
		if !live[ss] {
			delete(s.convs, ss)
		}
	}
}

// hungUp reports whether err only says the client went away.
func hungUp(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.EPIPE)
}

func newConversation() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return "mcp-" + hex.EncodeToString(b)
}
