package ledger

import (
	"fmt"
	"log/slog"
	"strings"
)

// fatal is what quietLogger panics with so Open can turn it into an error
// rather than letting Pebble exit the process.
type fatal string

// quietLogger routes Pebble's log lines into slog at debug level.
type quietLogger struct{}

func (quietLogger) Infof(format string, args ...any) {
	slog.Debug("pebble", "msg", fmt.Sprintf(format, args...))
}

func (quietLogger) Errorf(format string, args ...any) {
	slog.Warn("pebble", "msg", fmt.Sprintf(format, args...))
}

func (quietLogger) Fatalf(format string, args ...any) {
	panic(fatal(fmt.Sprintf(format, args...)))
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
