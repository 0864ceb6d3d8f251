package playwright_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// The shared driver serves the tests that need no driver of their own; each
// uses its own conversation. Its hooks block any URL with /blocked in it and
// refuse credential fields.
var shared struct {
	once sync.Once
	d    *playwright.Driver
	err  error
	dir  string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.d != nil {
		_ = shared.d.Close()
		_ = os.RemoveAll(shared.dir)
	}
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreCurrent()); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func sharedDriver(t testing.TB) *playwright.Driver {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "buddi-playwright-test-")
		if shared.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		shared.d, shared.err = browsertest.Start(ctx, shared.dir, policy)
	})
	if shared.err != nil {
		t.Fatalf("the browser did not start: %v", shared.err)
	}
	return shared.d
}

// policyError carries its own code, as egress refusals do.
type policyError struct{ code, msg string }

func (e *policyError) Error() string { return e.msg }
func (e *policyError) Coded() *messages.Error {
	return &messages.Error{Code: messages.Code(e.code), Message: e.msg}
}

func policy(c *playwright.Config) {
	c.CheckURL = func(raw string) error {
		switch {
		case strings.Contains(raw, "/blocked-coded"):
			return &policyError{"site_not_approved", "This site needs the owner's approval first."}
		case strings.Contains(raw, "/blocked"):
			return errors.New("The owner's rules do not allow this address")
		}
		return nil
	}
	rules, err := json.Marshal(egress.CredentialRules())
	if err != nil {
		panic(err)
	}
	c.FieldRules = rules
	c.CheckField = walker.CheckTyping
}
