package mcp

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// DefaultTimeout bounds one forwarded call: a navigate may take 15 s and a
// wait_for another 15 s, with the daemon's own queueing on top.
const DefaultTimeout = 90 * time.Second

// Config says which daemon to forward to and as which agent.
type Config struct {
	BaseURL      string        // the daemon, such as http://127.0.0.1:7777
	Token        string        // the agent's bearer token
	Conversation string        // fixed conversation; empty: one per MCP session
	HTTPClient   *http.Client  // optional; its own Timeout is not needed
	Version      string        // reported to MCP clients
	Timeout      time.Duration // per forwarded call; zero means DefaultTimeout
	// Reach is what the install lets the browser open, for browser_act's
	// description (AskReach asks the daemon); nil says nothing of it.
	Reach *messages.Reach
}

// ErrNoToken is returned by [New] when Config.Token is empty.
var ErrNoToken = errors.New("mcp: no agent token was given; create one with `buddi agent add NAME` and pass it as --agent-token or BUDDI_AGENT_TOKEN")

// BaseURLError is returned by [New] when Config.BaseURL is not an http or
// https URL with a host.
type BaseURLError struct{ URL string }

func (e *BaseURLError) Error() string {
	return fmt.Sprintf("mcp: %q is not the address of buddi; give an http URL such as http://127.0.0.1:7777", e.URL)
}

// validate checks cfg and returns it with defaults filled in.
func (cfg Config) validate() (Config, error) {
	cfg.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return cfg, &BaseURLError{URL: cfg.BaseURL}
	}
	if strings.TrimSpace(cfg.Token) == "" {
		return cfg, ErrNoToken
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	return cfg, nil
}
