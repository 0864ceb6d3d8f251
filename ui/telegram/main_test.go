package telegram_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// Every test stops its daemon, and with it the bot: nothing of the bot may
// be left running.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, daemontest.Lifelong()...) }
