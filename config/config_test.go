package config_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/config"
)

func load(t *testing.T, env map[string]string) (config.Config, error) {
	t.Helper()
	c, err := config.FromEnv(func(k string) string { return env[k] })
	if err != nil {
		return c, err
	}
	return c, c.Validate()
}

func TestTelegramSettings(t *testing.T) {
	token := "123456:" + strings.Repeat("A", 35)
	c, err := load(t, map[string]string{"BUDDI_TELEGRAM_TOKEN": " " + token + "\n"})
	if err != nil || c.TelegramToken != token || c.TelegramAPI != config.DefaultTelegramAPI {
		t.Fatalf("token only: %+v %v", c, err)
	}
	c, err = load(t, map[string]string{"BUDDI_TELEGRAM_API": "http://127.0.0.1:8081/"})
	if err != nil || c.TelegramAPI != "http://127.0.0.1:8081" {
		t.Fatalf("a local Bot API: %q %v", c.TelegramAPI, err)
	}
}

func TestBadTelegramSettingsSaySoInOneSentence(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"token without a secret": {"BUDDI_TELEGRAM_TOKEN": "123456"},
		"token with spaces":      {"BUDDI_TELEGRAM_TOKEN": "123456:abc def ghi jkl mno pqr stu"},
		"api without a scheme":   {"BUDDI_TELEGRAM_API": "api.telegram.org"},
		"api with a query":       {"BUDDI_TELEGRAM_API": "https://api.telegram.org/?x=1"},
		"api of another scheme":  {"BUDDI_TELEGRAM_API": "ftp://api.telegram.org"},
	} {
		_, err := load(t, env)
		if !errors.Is(err, config.ErrInvalid) || strings.Count(err.Error(), ". ") > 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestAPublicBindNeedsTLSOrTheExplicitOptOut(t *testing.T) {
	const cert, key = "/etc/buddi/cert.pem", "/etc/buddi/key.pem"
	cases := []struct {
		addr        string
		tls, optOut bool
		want        config.Binding
	}{
		{"127.0.0.1:7777", false, false, config.BindLoopback},
		{"127.8.9.10:1", false, false, config.BindLoopback},
		{"[::1]:7777", false, false, config.BindLoopback},
		{"localhost:7777", false, false, config.BindLoopback},
		{"[::ffff:127.0.0.1]:7777", false, false, config.BindLoopback},
		{"100.64.0.1:7777", false, false, config.BindTailnet},
		{"100.101.102.103:7777", false, false, config.BindTailnet},
		{"[fd7a:115c:a1e0::1]:7777", false, false, config.BindTailnet},
		{"0.0.0.0:7777", false, false, config.BindRefused},
		{"[::]:7777", false, false, config.BindRefused},
		{"192.168.1.5:7777", false, false, config.BindRefused},
		{"100.128.0.1:7777", false, false, config.BindRefused},
		{"example.com:7777", false, false, config.BindRefused},
		{"0.0.0.0:7777", true, false, config.BindTLS},
		{"192.168.1.5:7777", true, true, config.BindTLS},
		{"0.0.0.0:7777", false, true, config.BindPlaintext},
		{"[::]:7777", false, true, config.BindPlaintext},
	}
	for _, tc := range cases {
		c := config.Config{Addr: tc.addr, AllowRemote: tc.optOut}
		if tc.tls {
			c.TLSCert, c.TLSKey = cert, key
		}
		if got := c.Binding(); got != tc.want {
			t.Errorf("%s tls=%v opt-out=%v: Binding() = %d, want %d", tc.addr, tc.tls, tc.optOut, got, tc.want)
		}
		err := c.CheckServeAddr()
		if (err == nil) != (tc.want != config.BindRefused) {
			t.Errorf("%s tls=%v opt-out=%v: CheckServeAddr() = %v", tc.addr, tc.tls, tc.optOut, err)
		}
		if err == nil {
			continue
		}
		msg := err.Error()
		for _, choice := range []string{"127.0.0.1", "BUDDI_TAILNET=1", "--tls-cert", "--tls-key", "--allow-remote"} {
			if !strings.Contains(msg, choice) {
				t.Errorf("%s: the refusal does not name %s: %s", tc.addr, choice, msg)
			}
		}
		if !errors.Is(err, config.ErrInvalid) || strings.Count(msg, ". ") > 0 {
			t.Errorf("%s: not one sentence of ErrInvalid: %v", tc.addr, err)
		}
	}
}

func TestTLSFilesGoTogether(t *testing.T) {
	for _, c := range []config.Config{{Addr: "0.0.0.0:7777", TLSCert: "c.pem"}, {Addr: "127.0.0.1:7777", TLSKey: "k.pem"}} {
		if err := c.CheckServeAddr(); !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "both") {
			t.Errorf("cert %q key %q: %v", c.TLSCert, c.TLSKey, err)
		}
	}
}

func TestExposureSaysWhatIsServedWhere(t *testing.T) {
	c := config.Config{Addr: "0.0.0.0:7777", TLSCert: "/c.pem", TLSKey: "/k.pem", Tailnet: true, TailnetHostname: "buddi"}
	got := strings.Join(c.Exposure(), "\n")
	for _, want := range []string{"https://0.0.0.0:7777", "over TLS", "tailnet node buddi", "WhoIs"} {
		if !strings.Contains(got, want) {
			t.Errorf("Exposure() lacks %q:\n%s", want, got)
		}
	}
	c = config.Config{Addr: "0.0.0.0:7777", AllowRemote: true}
	if got := strings.Join(c.Exposure(), "\n"); !strings.Contains(got, "http://0.0.0.0:7777") || !strings.Contains(got, "in clear") || strings.Contains(got, "tailnet") {
		t.Errorf("plain HTTP beyond loopback: %s", got)
	}
}

func TestClusterSettings(t *testing.T) {
	c, err := load(t, nil)
	if err != nil || c.Cluster || len(c.ClusterEtcd) != 1 || c.ClusterEtcd[0] != config.DefaultEtcd {
		t.Fatalf("no cluster settings: %v %v %v", c.Cluster, c.ClusterEtcd, err)
	}
	c, err = load(t, map[string]string{"BUDDI_CLUSTER": "1", "BUDDI_CLUSTER_ETCD": " 10.0.0.5:2379, 10.0.0.6:2379 ,"})
	if err != nil || !c.Cluster || strings.Join(c.ClusterEtcd, " ") != "10.0.0.5:2379 10.0.0.6:2379" {
		t.Fatalf("a cluster on two endpoints: %v %v %v", c.Cluster, c.ClusterEtcd, err)
	}
	for _, bad := range []string{"10.0.0.5", ",", "etcd:"} {
		if _, err := load(t, map[string]string{"BUDDI_CLUSTER_ETCD": bad}); !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "BUDDI_CLUSTER_ETCD") {
			t.Errorf("BUDDI_CLUSTER_ETCD=%q: %v", bad, err)
		}
	}
}

func TestClusterMembership(t *testing.T) {
	c, err := load(t, nil)
	if err != nil || c.ClusterMembership != "etcd" {
		t.Fatalf("unset: %q %v; want the etcd membership", c.ClusterMembership, err)
	}
	c, err = load(t, map[string]string{"BUDDI_CLUSTER_MEMBERSHIP": " K8s "})
	if err != nil || c.ClusterMembership != "k8s" {
		t.Fatalf("k8s: %q %v", c.ClusterMembership, err)
	}
	for bad, says := range map[string]map[string]string{
		"not known":      {"BUDDI_CLUSTER_MEMBERSHIP": "zookeeper"},
		"no longer":      {"BUDDI_CLUSTER_MEMBERSHIP": "consul"},
		"consul's agent": {"BUDDI_CLUSTER_CONSUL": "10.0.0.7:8500"},
		"consul both":    {"BUDDI_CLUSTER_MEMBERSHIP": "consul", "BUDDI_CLUSTER_CONSUL": "10.0.0.7:8500"},
	} {
		if _, err := load(t, says); !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "BUDDI_CLUSTER_") {
			t.Errorf("%s %v: %v; want an invalid setting named", bad, says, err)
		}
	}
}

func TestClusterTLSFilesGoTogether(t *testing.T) {
	c, err := load(t, map[string]string{"BUDDI_CLUSTER_CA": "/ca.pem", "BUDDI_CLUSTER_CERT": "/m.pem", "BUDDI_CLUSTER_KEY": " /m.key "})
	if err != nil || c.ClusterCA != "/ca.pem" || c.ClusterCert != "/m.pem" || c.ClusterKey != "/m.key" {
		t.Fatalf("all three: %q %q %q %v", c.ClusterCA, c.ClusterCert, c.ClusterKey, err)
	}
	for _, some := range []map[string]string{{"BUDDI_CLUSTER_CA": "/ca.pem"}, {"BUDDI_CLUSTER_CERT": "/m.pem", "BUDDI_CLUSTER_KEY": "/m.key"}} {
		if _, err := load(t, some); !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "all three") {
			t.Errorf("%v: %v; want them refused as incomplete", some, err)
		}
	}
}

func TestClusterAdvertise(t *testing.T) {
	for _, good := range []string{"10.0.0.5:7777", "buddi-0.buddi.default.svc:7777", "[fd00::5]:7777"} {
		c, err := load(t, map[string]string{"BUDDI_CLUSTER_ADVERTISE": " " + good + " "})
		if err != nil || c.ClusterAdvertise != good {
			t.Errorf("BUDDI_CLUSTER_ADVERTISE=%q: %q, %v", good, c.ClusterAdvertise, err)
		}
	}
	for _, bad := range []string{"10.0.0.5", ":7777", "host:0", "host:99999", "host:http", "a b:7777", "http://x:7777"} {
		if _, err := load(t, map[string]string{"BUDDI_CLUSTER_ADVERTISE": bad}); !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "BUDDI_CLUSTER_ADVERTISE") {
			t.Errorf("BUDDI_CLUSTER_ADVERTISE=%q: %v", bad, err)
		}
	}
}

func TestRetention(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"":    config.DefaultRetention,
		"0":   0,
		"90m": 90 * time.Minute,
		"30d": 30 * 24 * time.Hour,
		"2s":  2 * time.Second,
	} {
		c, err := load(t, map[string]string{"BUDDI_RETENTION": v})
		if err != nil || c.Retention != want {
			t.Errorf("BUDDI_RETENTION=%q: %s, %v; want %s", v, c.Retention, err, want)
		}
	}
	for _, v := range []string{"soon", "-1h", "500ms", "d", "1.5d"} {
		_, err := load(t, map[string]string{"BUDDI_RETENTION": v})
		if !errors.Is(err, config.ErrInvalid) || strings.Count(err.Error(), ". ") > 0 {
			t.Errorf("BUDDI_RETENTION=%q: %v", v, err)
		}
	}
}

func TestTailnetOwnersAreLoginsSeparatedByCommas(t *testing.T) {
	c, err := load(t, map[string]string{"BUDDI_TAILNET_OWNERS": " You@Example.com, ,phone@github "})
	if err != nil || strings.Join(c.TailnetOwners, " ") != "you@example.com phone@github" {
		t.Fatalf("two logins: %q %v", c.TailnetOwners, err)
	}
	for _, bad := range []string{"you example.com", "you@example.com,nobody"} {
		_, err := load(t, map[string]string{"BUDDI_TAILNET_OWNERS": bad})
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "BUDDI_TAILNET_OWNERS") || strings.Count(err.Error(), ". ") > 0 {
			t.Errorf("%q: not one sentence naming the setting: %v", bad, err)
		}
	}
}
