package secret_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

func TestOriginIsWhatABrowserSerialises(t *testing.T) {
	cases := map[string]struct{ in, want string }{
		"https host":            {"https://GitHub.com", "https://github.com"},
		"trailing slash":        {"https://github.com/", "https://github.com"},
		"default port dropped":  {"https://github.com:443", "https://github.com"},
		"http default port":     {"http://127.0.0.1:80/", "http://127.0.0.1"},
		"other port kept":       {"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		"ipv6":                  {"http://[::1]:9000", "http://[::1]:9000"},
		"path refused":          {"https://github.com/login", ""},
		"query refused":         {"https://github.com/?a=b", ""},
		"no scheme refused":     {"github.com", ""},
		"ftp refused":           {"ftp://github.com", ""},
		"user info refused":     {"https://me@github.com", ""},
		"fragment refused":      {"https://github.com/#x", ""},
		"javascript refused":    {"javascript:alert(1)", ""},
		"empty refused":         {"", ""},
		"scheme only refused":   {"https://", ""},
		"whitespace is trimmed": {"  https://github.com  ", "https://github.com"},
	}
	for name, c := range cases {
		got, err := secret.Origin(c.in)
		switch {
		case c.want == "" && messages.CodeOf(err) != messages.CodeBadInput:
			t.Errorf("%s: Origin(%q) = %q, %v; want bad_input", name, c.in, got, err)
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("%s: Origin(%q) = %q, %v; want %q", name, c.in, got, err, c.want)
		}
	}
}

func TestVaultRefusesBadSecretsWithASentence(t *testing.T) {
	ok := secret.Owned{Name: "gh", Origins: []string{"https://github.com"}, Value: "v4lue"}
	cases := map[string]func(o *secret.Owned){
		"no name":          func(o *secret.Owned) { o.Name = " " },
		"name with spaces": func(o *secret.Owned) { o.Name = "my password" },
		"name too long":    func(o *secret.Owned) { o.Name = strings.Repeat("a", secret.MaxNameChars+1) },
		"no value":         func(o *secret.Owned) { o.Value = "" },
		"value too long":   func(o *secret.Owned) { o.Value = strings.Repeat("x", secret.MaxValueChars+1) },
		"no origin":        func(o *secret.Owned) { o.Origins = nil },
		"bad origin":       func(o *secret.Owned) { o.Origins = []string{"github.com/login"} },
	}
	for name, change := range cases {
		o := ok
		change(&o)
		err := secret.NewVault(t.TempDir()).Add(o)
		var me *messages.Error
		if !errors.As(err, &me) || me.Code != messages.CodeBadInput || !strings.HasSuffix(me.Message, ".") || strings.Count(me.Message, ". ") > 0 {
			t.Errorf("%s: Add gave %v; want one bad_input sentence", name, err)
		}
		if o.Value != "" && me != nil && strings.Contains(me.Message, o.Value) {
			t.Errorf("%s: the refusal quotes the value", name)
		}
	}
}

func TestVaultKeepsSecretsOwnerOnlyAndListsNoValue(t *testing.T) {
	dir := t.TempDir()
	v := secret.NewVault(dir)
	if err := v.Add(secret.Owned{Name: "gh", Origins: []string{"https://GitHub.com/", "https://github.com"}, Value: "first"}); err != nil {
		t.Fatal(err)
	}
	if err := v.Add(secret.Owned{Name: "gh", Origins: []string{"https://github.com"}, Value: "second-value"}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, secret.VaultFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("the vault's mode is %v, want 0600", st.Mode().Perm())
	}
	again := secret.NewVault(dir) // another process's view: the file is read again
	o, err := again.Get("gh")
	if err != nil || o.Value != "second-value" || len(o.Origins) != 1 || o.Origins[0] != "https://github.com" {
		t.Fatalf("Get after a replace = %+v, %v", o, err)
	}
	list, err := again.List()
	if err != nil || len(list) != 1 || list[0].Name != "gh" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if err := again.Remove("gh"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Get("gh"); messages.CodeOf(err) != messages.CodeUnknownSecret {
		t.Errorf("Get after Remove gave %v; want unknown_secret", err)
	}
	if err := v.Remove("gh"); messages.CodeOf(err) != messages.CodeUnknownSecret {
		t.Errorf("a second Remove gave %v; want unknown_secret", err)
	}
}

// TestVaultValuesFollowTheFile reads the values through one vault while
// another (the `buddi secret` command, in its own process) changes the
// file: every read after a change sees it, removals included.
func TestVaultValuesFollowTheFile(t *testing.T) {
	dir := t.TempDir()
	daemon, cli := secret.NewVault(dir), secret.NewVault(dir)
	if got := daemon.Values(); len(got) != 0 {
		t.Fatalf("values of no file: %q", got)
	}
	for i, want := range [][]string{{"value-one"}, {"value-one", "value-two"}} {
		name := []string{"one", "two"}[i]
		if err := cli.Add(secret.Owned{Name: name, Origins: []string{"https://example.com"}, Value: want[i]}); err != nil {
			t.Fatal(err)
		}
		for range 2 { // a second read, of the file unchanged, is the same
			if got := daemon.Values(); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("after adding %s: values %q, want %q", name, got, want)
			}
		}
	}
	if err := cli.Remove("one"); err != nil {
		t.Fatal(err)
	}
	if got := daemon.Values(); strings.Join(got, ",") != "value-two" {
		t.Fatalf("after removing one: values %q", got)
	}
	if err := os.Remove(filepath.Join(dir, secret.VaultFile)); err != nil {
		t.Fatal(err)
	}
	if got := daemon.Values(); len(got) != 0 {
		t.Fatalf("after the file was removed: values %q", got)
	}
}

// TestWatchedVaultFollowsTheFile reads the values through a vault that
// watches its file while another vault (the `buddi secret` command) and
// an editor change it: each change is seen (another process's once the
// watch reports it), and a write of the watching vault itself at once.
func TestWatchedVaultFollowsTheFile(t *testing.T) {
	dir := t.TempDir()
	daemon, cli := secret.NewVault(dir), secret.NewVault(dir)
	if err := daemon.Watch(); err != nil {
		t.Skipf("no file watch here: %v", err)
	}
	t.Cleanup(func() {
		if err := daemon.Close(); err != nil {
			t.Error(err)
		}
	})
	seen := func(when string, want ...string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for got := daemon.Values(); strings.Join(got, ",") != strings.Join(want, ","); got = daemon.Values() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: values %q, want %q", when, got, want)
			}
			time.Sleep(time.Millisecond)
		}
	}
	seen("no file")
	add := func(v *secret.Vault, name, value string) {
		t.Helper()
		if err := v.Add(secret.Owned{Name: name, Origins: []string{"https://example.com"}, Value: value}); err != nil {
			t.Fatal(err)
		}
	}
	add(cli, "one", "value-one")
	seen("the file made by another vault", "value-one")
	add(cli, "two", "value-two")
	seen("the file replaced by another vault", "value-one", "value-two")
	add(daemon, "three", "value-three")
	if got := daemon.Values(); strings.Join(got, ",") != "value-one,value-two,value-three" {
		t.Fatalf("at once after its own write: values %q", got)
	}
	path := filepath.Join(dir, secret.VaultFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(raw), "value-two", "value-2", 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil { // an edit in place
		t.Fatal(err)
	}
	seen("the file edited in place", "value-one", "value-2", "value-three")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	seen("the file removed")
	add(cli, "four", "value-four")
	seen("the file made again", "value-four")
}
