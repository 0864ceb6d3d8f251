// Package config reads buddi's settings from flags and the environment, in
// this one place, and validates every value, answering a bad one with one
// sentence that names the value and what would be accepted. Everything else
// (the daemon, the mode it builds, egress, doctor) takes a Config.
package config

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/egress"
)

// Config is everything buddi serve needs to start.
type Config struct {
	DataDir      string // --data, BUDDI_DATA_DIR
	Addr         string // --addr, BUDDI_ADDR
	Channel      string // BUDDI_BROWSER_CHANNEL
	NoSandbox    bool   // BUDDI_BROWSER_NO_SANDBOX
	BrowserUser  string // BUDDI_BROWSER_USER: as root, the account the browser runs as
	PublicOrigin string // BUDDI_WEB_PUBLIC_ORIGIN
	LogLevel     string // BUDDI_LOG_LEVEL: debug, info, warn, error
	Driver       string // BUDDI_DRIVER: playwright (default) or sim
	SiteApproval string // BUDDI_SITE_APPROVAL: off (default) or ask
	Profiles     string // BUDDI_BROWSER_PROFILES: shared (default) or agent
	// ComputerHelper is BUDDI_COMPUTER_HELPER: the native helper of Use my
	// apps; unset, buddi looks for it next to its own executable.
	ComputerHelper string
	// AllowRemote is the explicit opt-out of TLS on a public address
	// (--allow-remote, BUDDI_ALLOW_REMOTE): serve plain HTTP beyond
	// loopback, where tokens cross the network in clear unless something
	// else encrypts it. serve logs it as a warning.
	AllowRemote bool
	// TLSCert and TLSKey are --tls-cert and --tls-key (BUDDI_TLS_CERT,
	// BUDDI_TLS_KEY): PEM files of the certificate and key serve speaks
	// HTTPS with; both or neither.
	TLSCert, TLSKey string
	// Tailnet is BUDDI_TAILNET (--tailnet): buddi joins the owner's
	// tailnet as its own node and serves there too.
	Tailnet bool
	// TailnetAuthKey is BUDDI_TAILNET_AUTHKEY (else TS_AUTHKEY): the auth
	// key the node joins with; empty prints a login link instead.
	TailnetAuthKey string
	// TailnetHostname is BUDDI_TAILNET_HOSTNAME: the node's name on the
	// tailnet; "buddi" when unset.
	TailnetHostname string
	// TailnetControl is BUDDI_TAILNET_CONTROL: the coordination server's
	// URL; empty for Tailscale's own.
	TailnetControl string
	// TailnetOwners is BUDDI_TAILNET_OWNERS: tailnet logins, separated by
	// commas, put on the owner's list at start (the list keeps the logins
	// added since; the signed-in owner edits it on the dashboard).
	TailnetOwners []string
	// Egress is BUDDI_BROWSER_HOSTS, BUDDI_PREVIEW_ORIGINS and BUDDI_AIR_GAP.
	Egress egress.Config
	// Display is true when DISPLAY or WAYLAND_DISPLAY is set: the browser
	// can be shown (headed) rather than run headless.
	Display bool
	// Headless runs the browser headless even with a display (the owner's
	// choice in settings.json).
	Headless bool
	// TelegramToken is BUDDI_TELEGRAM_TOKEN: the bot's token from
	// @BotFather; empty leaves the Telegram surface off.
	TelegramToken string
	// TelegramAPI is BUDDI_TELEGRAM_API: the Bot API's base URL (a
	// self-hosted Bot API server, or a test server); DefaultTelegramAPI
	// when unset.
	TelegramAPI string
	// Given names the settings' variables the environment set: a setting
	// the environment fixes cannot be changed from the dashboard.
	Given map[string]bool

	// BrowserInstall is BUDDI_BROWSER_INSTALL: with no browser installed
	// for the agents, download one when buddi starts.
	BrowserInstall bool
	// Cluster makes this buddi a member of a cluster (--cluster,
	// BUDDI_CLUSTER): the owner's Stop is shared through etcd.
	Cluster bool
	// ClusterEtcd is BUDDI_CLUSTER_ETCD: etcd's client endpoints,
	// host:port, comma-separated; DefaultEtcd when unset.
	ClusterEtcd []string
	// ClusterAdvertise is --advertise, BUDDI_CLUSTER_ADVERTISE: the
	// host:port the other members and the owner reach this member at, as
	// the member list shows it; empty for the address serve listens on.
	ClusterAdvertise string
	// ClusterPort is BUDDI_CLUSTER_PORT: the port this member's cluster
	// transport (protoactor's remote, between members only) listens on,
	// at the advertised host; 0 for any free port, which the member
	// registers in etcd.
	ClusterPort int
	// ClusterMembership is BUDDI_CLUSTER_MEMBERSHIP: who keeps the
	// member list the cluster routes conversations by, one of
	// Memberships; etcd when unset. Stop, agents, tasks and site answers
	// are in etcd whichever it is.
	ClusterMembership string
	// ClusterCA, ClusterCert and ClusterKey are BUDDI_CLUSTER_CA,
	// BUDDI_CLUSTER_CERT and BUDDI_CLUSTER_KEY: PEM files of the cluster's
	// CA and this member's certificate and key, all three or none. With
	// them a member reaches etcd over TLS with its certificate, and the
	// members' transport is TLS that admits only certificates the CA
	// signed.
	ClusterCA, ClusterCert, ClusterKey string
	// ClusterSecret is --cluster-secret, BUDDI_CLUSTER_SECRET: the file
	// holding the cluster's secret (`buddi cluster init` makes it), which
	// signs the records of the owner's authority and seals what members
	// send each other; empty for ClusterSecretFile in the data directory.
	ClusterSecret string
	// ClusterPlaintextEtcd is --cluster-plaintext-etcd,
	// BUDDI_CLUSTER_PLAINTEXT_ETCD: let a member speak to an etcd beyond
	// loopback without TLS, which it refuses otherwise.
	ClusterPlaintextEtcd bool
	// ClusterTrustEtcd is --cluster-trust-etcd, BUDDI_CLUSTER_TRUST_ETCD:
	// let a member that remembers no generation of the cluster's records
	// (a new data directory) and hears from no other member take the
	// newest validly signed records etcd holds, which it refuses otherwise.
	ClusterTrustEtcd bool
	// Retention is BUDDI_RETENTION: how long the records of a conversation
	// whose task ended are kept (its task, session, counters, once
	// answers, and the refusal record's entries); 0 keeps them for good.
	Retention time.Duration
	// SimHosts is BUDDI_SIM_HOSTS: with the sim driver, more hosts the
	// simulated site answers at, each a copy of it that is not a preview
	// origin (so site approval and the URL rules apply to it).
	SimHosts []string
}

// Memberships are the values BUDDI_CLUSTER_MEMBERSHIP accepts:
// protoactor's etcd provider and its Kubernetes provider (the pods'
// labels, from inside a pod). The consul provider was never run against a
// consul agent and is not offered.
var Memberships = []string{"etcd", "k8s"}

// DefaultEtcd is the etcd a cluster member talks to when
// BUDDI_CLUSTER_ETCD is unset.
const DefaultEtcd = "127.0.0.1:2379"

// Variables whose settings the dashboard can also change (in
// <data>/browser/settings.json) unless the environment sets them.
var overridable = []string{"BUDDI_BROWSER_CHANNEL", "BUDDI_SITE_APPROVAL", "BUDDI_AIR_GAP"}

// Channels are the browser channels BUDDI_BROWSER_CHANNEL accepts: the
// Chrome channels Playwright knows, and chromium.
var Channels = []string{"chrome", "chrome-beta", "chrome-dev", "chrome-stable",
	"chromium", "msedge", "msedge-beta", "msedge-dev"}

// BUDDI_BROWSER_PROFILES values.
const (
	ProfilesShared = "shared" // one profile for every agent: the owner signs in once
	ProfilesAgent  = "agent"  // a profile of each agent's own: cookies and storage kept apart
)

// Defaults.
const (
	DefaultData = "./data"
	DefaultAddr = "127.0.0.1:7777"
	// DefaultTailnetHostname is the node's name on the tailnet.
	DefaultTailnetHostname = "buddi"
	// DefaultTelegramAPI is Telegram's public Bot API.
	DefaultTelegramAPI = "https://api.telegram.org"
)

// ErrInvalid marks a configuration error; its text is the sentence to show.
var ErrInvalid = errors.New("invalid configuration")

// Invalid returns an ErrInvalid error with one sentence.
func Invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// FromEnv fills the settings that only come from the environment and the
// defaults for --data and --addr (flags override them afterwards).
func FromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		DataDir:        or(getenv("BUDDI_DATA_DIR"), DefaultData),
		Addr:           or(getenv("BUDDI_ADDR"), DefaultAddr),
		Channel:        getenv("BUDDI_BROWSER_CHANNEL"),
		BrowserUser:    getenv("BUDDI_BROWSER_USER"),
		PublicOrigin:   getenv("BUDDI_WEB_PUBLIC_ORIGIN"),
		LogLevel:       or(getenv("BUDDI_LOG_LEVEL"), "info"),
		Driver:         or(getenv("BUDDI_DRIVER"), "playwright"),
		SiteApproval:   or(getenv("BUDDI_SITE_APPROVAL"), "off"),
		Profiles:       or(getenv("BUDDI_BROWSER_PROFILES"), ProfilesShared),
		ComputerHelper: getenv("BUDDI_COMPUTER_HELPER"),
		Display:        getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "",
		TelegramToken:  strings.TrimSpace(getenv("BUDDI_TELEGRAM_TOKEN")),
		TelegramAPI:    strings.TrimRight(or(getenv("BUDDI_TELEGRAM_API"), DefaultTelegramAPI), "/"),
		Given:          map[string]bool{},
	}
	for _, v := range overridable {
		if getenv(v) != "" {
			c.Given[v] = true
		}
	}
	ns, err := Bool("BUDDI_BROWSER_NO_SANDBOX", getenv("BUDDI_BROWSER_NO_SANDBOX"))
	if err != nil {
		return c, err
	}
	c.NoSandbox = ns
	if c.BrowserInstall, err = Bool("BUDDI_BROWSER_INSTALL", getenv("BUDDI_BROWSER_INSTALL")); err != nil {
		return c, err
	}
	if err = c.remoteFromEnv(getenv); err != nil {
		return c, err
	}
	if c.Cluster, err = Bool("BUDDI_CLUSTER", getenv("BUDDI_CLUSTER")); err != nil {
		return c, err
	}
	if c.ClusterEtcd, err = etcdEndpoints(or(getenv("BUDDI_CLUSTER_ETCD"), DefaultEtcd)); err != nil {
		return c, err
	}
	c.ClusterAdvertise = strings.TrimSpace(getenv("BUDDI_CLUSTER_ADVERTISE"))
	if c.ClusterPort, err = clusterPort(getenv("BUDDI_CLUSTER_PORT")); err != nil {
		return c, err
	}
	if c.ClusterMembership, err = membership(getenv); err != nil {
		return c, err
	}
	if err = c.clusterTrust(getenv); err != nil {
		return c, err
	}
	if c.Retention, err = retention(getenv("BUDDI_RETENTION")); err != nil {
		return c, err
	}
	c.SimHosts = simHosts(getenv("BUDDI_SIM_HOSTS"))
	eg, err := egress.ConfigFromEnv(getenv)
	if err != nil {
		return c, Invalid("%s", strings.TrimPrefix(err.Error(), "egress: "))
	}
	c.Egress = eg
	return c, nil
}

// Validate checks every field.
func (c *Config) Validate() error {
	if strings.TrimSpace(c.DataDir) == "" {
		return Invalid("the data directory is empty; pass --data DIR or set BUDDI_DATA_DIR")
	}
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return Invalid("the data directory %q cannot be resolved: %v", c.DataDir, err)
	}
	c.DataDir = abs
	if err := CheckAddr(c.Addr); err != nil {
		return err
	}
	if err := CheckAdvertise(c.ClusterAdvertise); err != nil {
		return err
	}
	return c.validateChoices()
}

// validateChoices checks the settings that take one of a few words.
func (c *Config) validateChoices() error {
	if c.Channel != "" && !slices.Contains(Channels, c.Channel) {
		return Invalid("BUDDI_BROWSER_CHANNEL %q is not known; use one of %s, or leave it unset", c.Channel, strings.Join(Channels, ", "))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return Invalid("BUDDI_LOG_LEVEL %q is not a level; use debug, info, warn or error", c.LogLevel)
	}
	switch c.Driver {
	case "playwright", "sim":
	default:
		return Invalid("BUDDI_DRIVER %q is not a driver; use playwright or sim", c.Driver)
	}
	if err := c.validatePolicy(); err != nil {
		return err
	}
	if c.PublicOrigin != "" && !strings.HasPrefix(c.PublicOrigin, "https://") && !strings.HasPrefix(c.PublicOrigin, "http://") {
		return Invalid("BUDDI_WEB_PUBLIC_ORIGIN %q must start with https:// or http://", c.PublicOrigin)
	}
	return c.validateTelegram()
}

// validatePolicy checks the settings that say how agents are kept apart
// and asked about.
func (c *Config) validatePolicy() error {
	if c.Profiles != "" && c.Profiles != ProfilesShared && c.Profiles != ProfilesAgent {
		return Invalid("BUDDI_BROWSER_PROFILES %q is not a setting; use shared (every agent in one profile, the default) or agent (a profile of each agent's own)", c.Profiles)
	}
	if c.SiteApproval != "" && c.SiteApproval != "off" && c.SiteApproval != "ask" {
		return Invalid("BUDDI_SITE_APPROVAL %q is not a setting; use ask, or off (the default)", c.SiteApproval)
	}
	return nil
}

// validateTelegram checks the bot's token and the Bot API's address.
func (c *Config) validateTelegram() error {
	if c.TelegramAPI == "" {
		c.TelegramAPI = DefaultTelegramAPI
	}
	u, err := url.Parse(c.TelegramAPI)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		u.RawQuery != "" || u.Fragment != "" {
		return Invalid("BUDDI_TELEGRAM_API %q is not a base URL; use https://api.telegram.org (the default) or your Bot API server's address, like http://127.0.0.1:8081", c.TelegramAPI)
	}
	if c.TelegramToken != "" && !telegramToken.MatchString(c.TelegramToken) {
		return Invalid("BUDDI_TELEGRAM_TOKEN is not a bot token; copy the whole token @BotFather gave (digits, a colon, then letters), or leave it unset")
	}
	return nil
}

// telegramToken is the shape of a bot token: the bot's id, a colon, a secret.
var telegramToken = regexp.MustCompile(`^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$`)

// Bool parses a boolean environment value: 1/0, true/false, yes/no, on/off.
func Bool(name, v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false, nil
	case "1", "true", "yes", "on":
		return true, nil
	}
	return false, Invalid("%s=%q is not a boolean; use 1 or 0", name, v)
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// simHosts splits BUDDI_SIM_HOSTS.
func simHosts(v string) []string {
	var out []string
	for _, h := range strings.Split(v, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// DefaultRetention is how long the records of an ended conversation are
// kept when BUDDI_RETENTION is unset.
const DefaultRetention = 7 * 24 * time.Hour

// retention parses BUDDI_RETENTION: a Go duration (90m, 12h), a number of
// days (30d), or 0 to keep records for good.
func retention(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	switch v {
	case "":
		return DefaultRetention, nil
	case "0":
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if days, ok := strings.CutSuffix(v, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		d = time.Duration(n) * 24 * time.Hour
	}
	if err != nil || d < time.Second {
		return 0, Invalid("BUDDI_RETENTION %q is not a retention; use a duration of at least 1s like 12h or 30d, or 0 to keep the records of ended conversations for good", v)
	}
	return d, nil
}
