package handwire

import (
	"bytes"
	"encoding/json"
	"math"
	"unicode"
	"unicode/utf8"
)

// Kind is what one input of the hand does.
type Kind string

// Hand input kinds. Ack, CSRF and Give are the socket's own: Ack says the
// tab drew frame Seq; CSRF is the first message, carrying the page's token
// (and, from a touch screen, the size to lay the page out at); Give hands
// the page back behind the input sent before it (a resume sent another way
// could overtake input still on its way). View lays the page out again at
// the touch screen's new size (the phone turned).
const (
	Move    Kind = "move"
	Down    Kind = "down"
	Up      Kind = "up"
	Wheel   Kind = "wheel"
	KeyDown Kind = "keydown"
	KeyUp   Kind = "keyup"
	Char    Kind = "char" // one typed character
	Ack     Kind = "ack"
	CSRF    Kind = "csrf"
	Give    Kind = "give" // Give it back: resume, after every input sent before it
	View    Kind = "view" // the touch screen's size changed
)

// The sizes, in CSS pixels, a touch screen may ask the page to be laid out
// at (each side).
const (
	ViewMin = 120
	ViewMax = 4096
)

// Mouse buttons.
const (
	ButtonLeft   = "left"
	ButtonMiddle = "middle"
	ButtonRight  = "right"
)

// Input is one validated message of the hand socket. X and Y are CSS
// pixels of the page's viewport, as the frame header maps them.
type Input struct {
	Kind   Kind
	X, Y   float64
	Button string  // down and up
	DX, DY float64 // wheel
	Key    string  // keydown and keyup: a name of the allow list; char: one character
	Seq    uint32  // ack
	Token  string  // csrf
	Resume string  // csrf: the attachment to take over after a drop
	Take   bool    // csrf: take the hand from another tab driving
	W, H   int     // csrf (0: keep the agent's layout) and view: the screen to lay the page out for
}

// Pointer says whether the input carries a position.
func (in *Input) Pointer() bool {
	switch in.Kind {
	case Move, Down, Up, Wheel:
		return true
	}
	return false
}

// Within says whether the input's position lies on a page of w×h CSS
// pixels (inputs without a position always do).
func (in *Input) Within(w, h int) bool {
	if !in.Pointer() {
		return true
	}
	s := float64(CoordsSlack)
	return in.X >= -s && in.Y >= -s && in.X <= float64(w)+s && in.Y <= float64(h)+s
}

// Keys are the key names a hand may press and release; anything else
// is typed as one character.
var Keys = map[string]bool{
	"Enter": true, "Tab": true, "Backspace": true, "Delete": true, "Escape": true, "Space": true,
	"ArrowUp": true, "ArrowDown": true, "ArrowLeft": true, "ArrowRight": true,
	"Home": true, "End": true, "PageUp": true, "PageDown": true,
	"Shift": true, "Control": true, "Alt": true, "Meta": true,
}

// Modifiers are the keys a hand releases when it lets go.
var Modifiers = map[string]bool{"Shift": true, "Control": true, "Alt": true, "Meta": true}

// wireInput is the JSON of one hand message.
type wireInput struct {
	T      string   `json:"t"`
	X      *float64 `json:"x"`
	Y      *float64 `json:"y"`
	B      string   `json:"b"`
	DX     float64  `json:"dx"`
	DY     float64  `json:"dy"`
	K      string   `json:"k"`
	Seq    *uint32  `json:"seq"`
	Token  string   `json:"token"`
	Resume string   `json:"resume"`
	Take   bool     `json:"take"`
	W      *int     `json:"w"`
	H      *int     `json:"h"`
}

// DecodeInput reads one message of the hand socket. It refuses (with a
// *Refusal) an
// oversized message, an unknown type or field, a position that is missing
// or not a finite number, an unknown button, a key off the allow list, and
// a typed key that is not exactly one printable character.
func DecodeInput(b []byte) (*Input, error) {
	if len(b) > InputMax {
		return nil, refuse("That input message is too long; one message carries one pointer event or one key.")
	}
	var w wireInput
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&w); err != nil || d.More() {
		return nil, refuse("That input message is not one JSON object of the hand's form; reload the dashboard.")
	}
	in := &Input{Kind: Kind(w.T)}
	switch in.Kind {
	case Move, Down, Up, Wheel:
		return pointerInput(in, &w)
	default:
		return otherInput(in, &w)
	}
}

// otherInput reads the messages without a position: keys, acks, the token.
func otherInput(in *Input, w *wireInput) (*Input, error) {
	switch in.Kind {
	case KeyDown, KeyUp, Char:
		return keyInput(in, w)
	case Ack:
		if w.Seq == nil {
			return nil, refuse("An ack names the frame it drew.")
		}
		in.Seq = *w.Seq
	case Give:
	case CSRF:
		if w.Token == "" || len(w.Token) > 64 || len(w.Resume) > 64 {
			return nil, refuse("The first message carries the dashboard's CSRF token; reload the dashboard.")
		}
		in.Token, in.Resume, in.Take = w.Token, w.Resume, w.Take
		if w.W != nil || w.H != nil {
			return viewInput(in, w)
		}
	case View:
		return viewInput(in, w)
	default:
		return nil, refuse("That input message has an unknown type; reload the dashboard.")
	}
	return in, nil
}

// keyInput reads a key pressed or let go, or a character typed.
func keyInput(in *Input, w *wireInput) (*Input, error) {
	switch {
	case in.Kind == Char && !oneChar(w.K):
		return nil, refuse("A typed key carries exactly one printable character.")
	case in.Kind != Char && !Keys[w.K]:
		return nil, refuse("That key is not one the hand presses; type it as a character instead.")
	}
	in.Key = w.K
	return in, nil
}

// viewInput reads the size of a touch screen.
func viewInput(in *Input, w *wireInput) (*Input, error) {
	ok := func(n *int) bool { return n != nil && *n >= ViewMin && *n <= ViewMax }
	if !ok(w.W) || !ok(w.H) {
		return nil, refuse("A screen's size is two whole numbers of CSS pixels, each from 120 to 4096.")
	}
	in.W, in.H = *w.W, *w.H
	return in, nil
}

func pointerInput(in *Input, w *wireInput) (*Input, error) {
	if w.X == nil || w.Y == nil || !finite(*w.X) || !finite(*w.Y) {
		return nil, refuse("A pointer input carries its position as two numbers.")
	}
	in.X, in.Y = *w.X, *w.Y
	switch in.Kind {
	case Down, Up:
		if w.B != ButtonLeft && w.B != ButtonMiddle && w.B != ButtonRight {
			return nil, refuse("A press or release names its button: left, middle or right.")
		}
		in.Button = w.B
	case Wheel:
		if !finite(w.DX) || !finite(w.DY) || math.Abs(w.DX) > WheelMax || math.Abs(w.DY) > WheelMax {
			return nil, refuse("A wheel input scrolls by at most 5000 pixels each way.")
		}
		in.DX, in.DY = w.DX, w.DY
	}
	return in, nil
}

func oneChar(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n == len(s) && n > 0 && r != utf8.RuneError && unicode.IsPrint(r)
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) && math.Abs(f) < 1e6 }

// Refusal is why a message was refused: one sentence that never repeats
// what was typed. The socket drops refused input unread (a refused first
// message ends it as bad_csrf).
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

func refuse(reason string) error { return &Refusal{Reason: reason} }
