package main_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// buddi open prints a one-time link that signs a browser in, as serve's own
// printed link does.
func TestOpenPrintsALinkThatSignsInOnce(t *testing.T) {
	dir := t.TempDir()
	s := serve(t, dir)
	r := runCLI(t, nil, "open", "--data", dir)
	m := regexp.MustCompile(`Sign in to the dashboard: (http://\S+/#/signin/(\S+))`).FindStringSubmatch(r.stdout)
	if r.code != 0 || m == nil || !strings.HasPrefix(m[1], "http://"+s.addr+"/") {
		t.Fatalf("open: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	signIn := func() int { return signInWith(t, s.addr, m[2]) }
	if got := signIn(); got != 200 {
		t.Fatalf("the printed link did not sign in: %d", got)
	}
	if got := signIn(); got != 401 {
		t.Fatalf("the printed link signed in twice: %d", got)
	}
}

// serve writing to a pipe (journald, a container's log) prints no sign-in
// link, which such logs would keep; it says to run buddi open instead.
func TestServeToALogPrintsNoSignInLink(t *testing.T) {
	s := serve(t, t.TempDir())
	if strings.Contains(s.signIn, "/#/signin/") || !strings.Contains(s.signIn, "run `buddi open`") {
		t.Fatalf("serve, its output a pipe, said %q", s.signIn)
	}
}

// A thousand failed sign-ins from loopback, where the owner's browser is
// too, do not keep a fresh link from buddi open from signing in at once.
func TestOpenSignsInAfterAThousandFailures(t *testing.T) {
	dir := t.TempDir()
	s := serve(t, dir)
	signIn := func(token string) int { return signInWith(t, s.addr, token) }
	limited := 0
	for range 1000 {
		switch code := signIn("bl_wrong"); code {
		case http.StatusTooManyRequests:
			limited++
		case http.StatusUnauthorized:
		default:
			t.Fatalf("a wrong link answered %d", code)
		}
	}
	if limited == 0 {
		t.Fatal("1,000 wrong links in a row were never limited")
	}
	r := runCLI(t, nil, "open", "--data", dir)
	m := regexp.MustCompile(`#/signin/(\S+)`).FindStringSubmatch(r.stdout)
	if r.code != 0 || m == nil {
		t.Fatalf("open: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	if got := signIn(m[1]); got != http.StatusOK {
		t.Fatalf("the fresh link after 1,000 failures answered %d, want 200", got)
	}
}

// signInWith posts a sign-in link's token to buddi at addr, as the
// dashboard's page does, and returns the status.
func signInWith(t *testing.T, addr, token string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/session", strings.NewReader(`{"token":"`+token+`"}`))
	req.Header.Set("Origin", "http://"+addr)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}
