package ui

import (
	"context"
	"time"

	"github.com/buddi-dev/buddi/internal/bounded"
)

// deadline bounds one request's wait on the actors. Its timer is armed
// only once someone asks for Done: the agent's hot path never does (the
// gateway waits on its own timer), so most requests never arm one.
func deadline(d time.Duration) (context.Context, context.CancelFunc) {
	c := bounded.New(d)
	return c, c.Cancel
}
