package playwright_test

import (
	"net/http"
	"testing"

	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

func TestLoginsListsSitesWithLastingCookiesAndSignOutClearsThem(t *testing.T) {
	s := newSite(t)
	s.mux.HandleFunc("/login", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Add("Set-Cookie", "sid=kept; Max-Age=3600; Path=/")
		w.Header().Add("Set-Cookie", "tmp=gone-at-exit; Path=/")
		_, _ = w.Write([]byte("<!doctype html><title>in</title>signed in"))
	})
	d := browsertest.New(t)
	tabs := openConv(t, d, "logins")
	navigate(t, tabs, s.URL+"/login")
	logins, err := d.Logins(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(logins) != 1 || logins[0].Site != "127.0.0.1" || logins[0].Cookies != 1 || logins[0].Expires.IsZero() {
		t.Fatalf("logins = %+v, want 127.0.0.1 with its one lasting cookie", logins)
	}
	cleared, err := d.SignOut(testCtx(t), "127.0.0.1")
	if err != nil || len(cleared) != 1 || cleared[0] != "127.0.0.1" {
		t.Fatalf("sign out: %v %v", cleared, err)
	}
	if logins, err = d.Logins(testCtx(t)); err != nil || len(logins) != 0 {
		t.Fatalf("after signing out: %+v %v", logins, err)
	}
}
