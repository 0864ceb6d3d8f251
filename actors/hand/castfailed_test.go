package hand

import (
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// gonePin is a pin whose page may have gone; only Gone and Why are used.
type gonePin struct {
	drivers.Pinned
	gone chan struct{}
	why  *messages.Error
}

func (p *gonePin) Gone() <-chan struct{} { return p.gone }
func (p *gonePin) Why() *messages.Error  { return p.why }

// A screencast that failed to start ends the hand with the page's own end
// when the page went as it started, and with the picture's failure
// otherwise.
func TestAFailedPictureEndsTheHandWithThePagesOwnEnd(t *testing.T) {
	closed := make(chan struct{})
	close(closed)
	tabGone := &messages.Error{Code: messages.CodeTabGone, Message: "The tab closed."}
	cases := map[string]struct {
		pin  *gonePin
		want messages.Code
	}{
		"page still there":         {&gonePin{gone: make(chan struct{})}, messages.CodeHandEnded},
		"page gone":                {&gonePin{gone: closed, why: tabGone}, messages.CodeTabGone},
		"page gone without reason": {&gonePin{gone: closed}, messages.CodeHandEnded},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := castFailed(c.pin); got.Code != c.want {
				t.Fatalf("ended with %+v, want %s", got, c.want)
			}
		})
	}
}
