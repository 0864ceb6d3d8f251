package grains

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Kind is the one grain kind a buddi cluster hosts.
const Kind = "session"

// Defaults for the fields Config leaves zero.
const (
	DefaultName           = "buddi"
	DefaultPrefix         = "/buddi/protoactor"
	DefaultRequestTimeout = 10 * time.Second
	DefaultDialTimeout    = 5 * time.Second
)

// Producer makes the actor of one activation; identity is the grain's
// identity, the conversation id.
type Producer func(identity string) actor.Actor

// Config says where this member listens, where etcd is and what a session
// grain is.
type Config struct {
	// Name is the cluster's name; members of one cluster share it.
	Name string
	// Host and Port are where this member's remote server listens, such as
	// 127.0.0.1 and 0 for a free port; AdvertisedHost, when set, is the
	// host:port other members reach it at.
	Host           string
	Port           int
	AdvertisedHost string
	// Membership names who keeps the member list: MembershipEtcd (the
	// default) or MembershipK8s.
	Membership string
	// Endpoints are etcd client URLs; Prefix is the key prefix the etcd
	// provider keeps the member list under; EtcdTLS, when set, is how its
	// client reaches etcd over TLS.
	Endpoints   []string
	EtcdTLS     *tls.Config
	Prefix      string
	DialTimeout time.Duration
	// RequestTimeout bounds a Request whose context has no deadline.
	RequestTimeout time.Duration
	// Produce makes a session grain's actor; Types are the messages that
	// may cross members.
	Produce Producer
	Types   *Registry
	// MemberTLS, when set, is the TLS of the members' transport, server
	// and dialling side alike (shared.TLS.Member); nil sends in the clear.
	MemberTLS *tls.Config
	// Capacity is the most sessions this member holds at once, one per
	// browser profile; 0 is no limit. A member that holds Capacity refuses
	// a new one, which the cluster then places on another member.
	Capacity int
	// Local answers what is asked of every member (Member.Each) on this
	// one; nil answers nothing.
	Local Local
	// Logger receives protoactor's logs; nil discards all but errors.
	Logger *slog.Logger
	// OnLapse, when set, is called each time this member's entry in etcd's
	// member list lapsed and was written again: the members that saw it go
	// route nothing to it until it restarts.
	OnLapse func()
	// OnRoutes, when set, is called with the cluster addresses of the
	// members placement routes sessions to (this one included: those of
	// protoactor's list that proved they hold the cluster's key) each time
	// they change, in the order they changed.
	OnRoutes func(addrs []string)
	// Made, when set, is called with the member's actor system as soon as
	// it is made, before anything runs in it (the daemon compacts its
	// registry of processes, as actors.NewSystem does for its own).
	Made func(*actor.ActorSystem)
}

func (c Config) validate() (Config, error) {
	c, err := c.validateMembership()
	if err != nil {
		return c, err
	}
	if c.Host == "" {
		return c, errors.New("grains: no host to listen on is configured; give one, such as 127.0.0.1")
	}
	if c.Port < 0 || c.Port > 65535 {
		return c, errors.New("grains: the port is outside 0 to 65535; give a free port or 0 for any")
	}
	if c.Capacity < 0 {
		return c, errors.New("grains: the capacity is negative; give the most sessions this member holds, or 0 for no limit")
	}
	if c.Produce == nil || c.Types == nil {
		return c, errors.New("grains: no session producer or message registry is configured; give both")
	}
	if c.Name == "" {
		c.Name = DefaultName
	}
	if strings.ContainsAny(c.Name, "/@") {
		return c, errors.New("grains: the cluster name contains '/' or '@'; use letters, digits and '-'")
	}
	c.Prefix = strings.TrimRight(c.Prefix, "/")
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = DefaultDialTimeout
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

func (c Config) validateMembership() (Config, error) {
	if c.Membership == "" {
		c.Membership = MembershipEtcd
	}
	if !slices.Contains(Memberships, c.Membership) {
		return c, fmt.Errorf("grains: no membership is called %q; use one of %s", c.Membership, strings.Join(Memberships, ", "))
	}
	if c.Membership == MembershipEtcd && len(c.Endpoints) == 0 {
		return c, errors.New("grains: no etcd endpoint is configured; give at least one client URL, such as http://127.0.0.1:2379")
	}
	return c, nil
}
