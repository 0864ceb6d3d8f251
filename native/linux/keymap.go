package linux

import (
	"unicode"

	"github.com/jezek/xgb/xproto"

	"github.com/buddi-dev/buddi/native/protocol"
)

// Keysyms of the named keys press sends, and of the keys fill uses.
var namedKeysyms = map[string]xproto.Keysym{
	"Enter": 0xff0d, "Tab": 0xff09, "Escape": 0xff1b, "Backspace": 0xff08, "Delete": 0xffff,
	"ArrowUp": 0xff52, "ArrowDown": 0xff54, "ArrowLeft": 0xff51, "ArrowRight": 0xff53,
	"Home": 0xff50, "End": 0xff57, "PageUp": 0xff55, "PageDown": 0xff56, "Space": 0x20,
}

const keysymShiftL xproto.Keysym = 0xffe1

// keysymOf is the keysym that types r: Latin-1 characters are their own
// keysym, a newline is Return, a tab is Tab, and anything else is the
// Unicode keysym 0x01000000 + r.
func keysymOf(r rune) xproto.Keysym {
	switch {
	case r == '\n':
		return 0xff0d
	case r == '\t':
		return 0xff09
	case (r >= 0x20 && r <= 0x7e) || (r >= 0xa0 && r <= 0xff):
		return xproto.Keysym(r)
	}
	return xproto.Keysym(0x01000000 + r)
}

// keymap is the server's keyboard mapping.
type keymap struct {
	min  xproto.Keycode
	per  int
	syms []xproto.Keysym
}

func (d *display) keymap() (*keymap, error) {
	n := int(d.setup.MaxKeycode) - int(d.setup.MinKeycode) + 1
	r, err := xproto.GetKeyboardMapping(d.c, d.setup.MinKeycode, byte(n)).Reply()
	if err != nil {
		return nil, err
	}
	return &keymap{min: d.setup.MinKeycode, per: int(r.KeysymsPerKeycode), syms: r.Keysyms}, nil
}

// find returns a keycode that types sym without a modifier or with Shift.
func (k *keymap) find(sym xproto.Keysym) (code xproto.Keycode, shift, ok bool) {
	for level := range min(k.per, 2) {
		for i := 0; i+level < len(k.syms); i += k.per {
			if k.syms[i+level] == sym {
				return k.min + xproto.Keycode(i/k.per), level == 1, true
			}
		}
	}
	return 0, false, false
}

// free lists keycodes that type nothing.
func (k *keymap) free() []xproto.Keycode {
	var out []xproto.Keycode
	for i := 0; i+k.per <= len(k.syms); i += k.per {
		empty := true
		for _, s := range k.syms[i : i+k.per] {
			empty = empty && s == 0
		}
		if empty {
			out = append(out, k.min+xproto.Keycode(i/k.per))
		}
	}
	return out
}

// stroke is one key to press, with or without Shift.
type stroke struct {
	code  xproto.Keycode
	shift bool
}

// plan turns text into strokes, and lists the keysyms the keyboard lacks
// with the spare keycodes (ones that type nothing today) remap will give
// them. Those mappings are left in place afterwards: an app may read a key
// event only after a restored mapping arrived, and type the wrong
// character. plan sends nothing and changes nothing; it refuses text it
// cannot type.
func (d *display) plan(text string) ([]stroke, map[xproto.Keysym]xproto.Keycode, error) {
	if !d.xtest {
		return nil, nil, protocol.Errorf(protocol.CodeNoDisplay, "The X server has no XTEST extension, so the helper cannot type; use an X server with XTEST.")
	}
	k, err := d.keymap()
	if err != nil {
		return nil, nil, err
	}
	if d.capsLock() && hasCase(text) {
		return nil, nil, protocol.Errorf(protocol.CodeKeyNotAllowed, "Caps Lock is on, so letters would be typed in the wrong case and nothing was typed; ask the owner to turn it off.")
	}
	spare := k.free()
	added := map[xproto.Keysym]xproto.Keycode{}
	var out []stroke
	for _, r := range text {
		sym := keysymOf(r)
		if code, shift, ok := k.find(sym); ok {
			out = append(out, stroke{code, shift})
			continue
		}
		code, ok := added[sym]
		if !ok {
			if len(spare) == 0 {
				return nil, nil, protocol.Errorf(protocol.CodeKeyNotAllowed, "The value has more unusual characters than this keyboard has free keys, so nothing was typed; fill a shorter or plainer value.")
			}
			code, spare = spare[0], spare[1:]
			added[sym] = code
		}
		out = append(out, stroke{code: code})
	}
	d.per = k.per
	return out, added, nil
}

// remap gives each added keysym its spare keycode.
func (d *display) remap(added map[xproto.Keysym]xproto.Keycode) error {
	for sym, code := range added {
		syms := make([]xproto.Keysym, d.per)
		syms[0] = sym
		if d.per > 1 {
			syms[1] = sym
		}
		if err := xproto.ChangeKeyboardMappingChecked(d.c, 1, code, byte(d.per), syms).Check(); err != nil {
			return err
		}
	}
	return nil
}

func hasCase(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) || unicode.IsLower(r) {
			return true
		}
	}
	return false
}

// capsLock reports whether Caps Lock is on.
func (d *display) capsLock() bool {
	r, err := xproto.QueryPointer(d.c, d.root).Reply()
	return err == nil && r.Mask&xproto.ModMaskLock != 0
}

// shiftCode is the keycode of the left Shift key.
func (k *keymap) shiftCode() (xproto.Keycode, bool) {
	code, _, ok := k.find(keysymShiftL)
	return code, ok
}
