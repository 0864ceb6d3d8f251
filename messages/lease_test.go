package messages

import "testing"

// countedLease counts how often its memory is given back.
type countedLease struct{ n int }

func (c *countedLease) Free() { c.n++ }

// FreeText gives a lent text back once and empties it; an answer whose
// text was not lent keeps it, and freeing twice frees once.
func TestFreeTextGivesALentTextBackOnce(t *testing.T) {
	cases := []struct {
		name string
		make func(l Lease) (Answer, *string)
		lend bool
	}{
		{"observation lent", func(l Lease) (Answer, *string) {
			o := &Observation{Text: "page"}
			o.Lend(l)
			return o, &o.Text
		}, true},
		{"outcome lent", func(l Lease) (Answer, *string) {
			o := &Outcome{Text: "page"}
			o.Lend(l)
			return o, &o.Text
		}, true},
		{"observation not lent", func(Lease) (Answer, *string) {
			o := &Observation{Text: "page"}
			return o, &o.Text
		}, false},
		{"closed", func(Lease) (Answer, *string) {
			c := &Closed{Text: "page"}
			return c, &c.Text
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := &countedLease{}
			a, text := c.make(l)
			FreeText(a)
			FreeText(a)
			want, frees := "page", 0
			if c.lend {
				want, frees = "", 1
			}
			if *text != want || l.n != frees {
				t.Fatalf("text %q freed %d times; want %q freed %d", *text, l.n, want, frees)
			}
		})
	}
	FreeText(nil)
	FreeText((*Observation)(nil))
}
