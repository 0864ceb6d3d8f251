package webtest_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/buddi-dev/buddi/ui/web/webtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	webtest.Stop()
	fmt.Fprintln(os.Stderr, "dashboard screenshots:", webtest.Shots())
	os.Exit(code)
}
