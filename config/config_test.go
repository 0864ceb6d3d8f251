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

func TestServingBeyondLoopbackNeedsAllowRemote(t *testing.T) {
	cases := map[string]bool{ // address → served without --allow-remote
		"127.0.0.1:7777": true, "127.8.9.10:1": true, "[::1]:7777": true, "localhost:7777": true,
		"0.0.0.0:7777": false, "[::]:7777": false, "192.168.1.5:7777": false, "100.64.0.1:7777": false,
		"[::ffff:127.0.0.1]:7777": true, "example.com:7777": false,
	}
	for addr, local := range cases {
		c := config.Config{Addr: addr}
		if err := c.CheckServeAddr(); (err == nil) != local {
			t.Errorf("%s: CheckServeAddr() = %v", addr, err)
		}
		c.AllowRemote = true
		if err := c.CheckServeAddr(); err != nil {
			t.Errorf("%s with AllowRemote: %v", addr, err)
		}
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
	if err != nil || c.ClusterMembership != "etcd" || c.ClusterConsul != "" {
		t.Fatalf("unset: %q %q %v; want the etcd membership", c.ClusterMembership, c.ClusterConsul, err)
	}
	c, err = load(t, map[string]string{"BUDDI_CLUSTER_MEMBERSHIP": " K8s "})
	if err != nil || c.ClusterMembership != "k8s" {
		t.Fatalf("k8s: %q %v", c.ClusterMembership, err)
	}
	c, err = load(t, map[string]string{"BUDDI_CLUSTER_MEMBERSHIP": "consul", "BUDDI_CLUSTER_CONSUL": "10.0.0.7:8500"})
	if err != nil || c.ClusterMembership != "consul" || c.ClusterConsul != "10.0.0.7:8500" {
		t.Fatalf("consul: %q %q %v", c.ClusterMembership, c.ClusterConsul, err)
	}
	for _, bad := range []map[string]string{
		{"BUDDI_CLUSTER_MEMBERSHIP": "zookeeper"},
		{"BUDDI_CLUSTER_CONSUL": "10.0.0.7:8500"},
		{"BUDDI_CLUSTER_MEMBERSHIP": "consul", "BUDDI_CLUSTER_CONSUL": "10.0.0.7"},
	} {
		if _, err := load(t, bad); !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "BUDDI_CLUSTER_") {
			t.Errorf("%v: %v; want an invalid setting named", bad, err)
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
