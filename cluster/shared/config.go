package shared

import (
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"strings"
	"time"
)

// DefaultPrefix is the key prefix buddi's members share in etcd.
const DefaultPrefix = "/buddi"

// DefaultDialTimeout bounds Open's first connection when Config leaves
// DialTimeout zero.
const DefaultDialTimeout = 5 * time.Second

// Config says where etcd is and under which prefix buddi keeps its keys.
type Config struct {
	// Endpoints are etcd client URLs, such as http://10.0.0.1:2379.
	Endpoints []string
	// Prefix is prepended to every key, such as /buddi. Hosts of one
	// cluster share it; a trailing slash is ignored.
	Prefix string
	// DialTimeout bounds the first connection; zero means DefaultDialTimeout.
	DialTimeout time.Duration
	// TLS, when set, is how to reach etcd over TLS (TLS.Client), with
	// https:// endpoints or host:port ones.
	TLS *tls.Config
	// Secret is the cluster's secret (ReadSecret), which every record
	// carrying the owner's authority is signed and verified with.
	Secret Secret
	// Generations is the file where this member keeps the newest
	// generation it has seen of the Stop flag, each agent and each site
	// answer, so that after a restart it still refuses an older one
	// written back (gen.go); empty keeps them in memory only.
	Generations string
	// Log hears of every record refused for its signature, once per key
	// and revision; nil discards.
	Log *slog.Logger
}

func (c Config) validate() (Config, error) {
	if len(c.Endpoints) == 0 {
		return c, errors.New("shared: no etcd endpoint is configured; give at least one client URL, such as http://127.0.0.1:2379")
	}
	c.Prefix = strings.TrimRight(c.Prefix, "/")
	if c.Prefix == "" {
		return c, errors.New("shared: the etcd key prefix is empty; give one, such as /buddi, so buddi's keys stay apart from others'")
	}
	if c.Secret.IsZero() {
		return c, errors.New("shared: no cluster secret is configured; make one with `buddi cluster init` and give every member the same file")
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.DialTimeout < 0 {
		return c, errors.New("shared: the etcd dial timeout is negative; give a positive duration or zero for the default")
	}
	if c.DialTimeout == 0 {
		c.DialTimeout = DefaultDialTimeout
	}
	return c, nil
}

// PlaintextBeyondLoopback lists the endpoints a client would speak to
// without TLS on a host other than this machine's loopback: every
// http:// one, and, without TLS, every one that does not say https://.
func PlaintextBeyondLoopback(endpoints []string, withTLS bool) []string {
	var out []string
	for _, ep := range endpoints {
		rest, plain := strings.CutPrefix(ep, "http://")
		if !plain {
			var secure bool
			rest, secure = strings.CutPrefix(ep, "https://")
			plain = !secure && !withTLS
		}
		if plain && !loopback(rest) {
			out = append(out, ep)
		}
	}
	return out
}

// loopback reports whether hostport names this machine's loopback: the
// name localhost or a loopback address.
func loopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]/")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
