package linux

import (
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"github.com/buddi-dev/buddi/native/protocol"
)

// fake sends one XTEST event.
func (d *display) fake(kind byte, detail byte, x, y int16) error {
	return xtest.FakeInputChecked(d.c, kind, detail, 0, d.root, x, y, 0).Check()
}

// click moves the pointer to a root-window point and clicks the left button.
func (d *display) click(x, y int) error {
	if !d.xtest {
		return protocol.Errorf(protocol.CodeNoDisplay, "The X server has no XTEST extension, so the helper cannot click; use an X server with XTEST.")
	}
	if err := d.fake(xproto.MotionNotify, 0, int16(x), int16(y)); err != nil {
		return protocol.Errorf(protocol.CodeNoDisplay, "The pointer could not be moved, so nothing was clicked.").WithDetail(err)
	}
	if err := d.fake(xproto.ButtonPress, 1, 0, 0); err != nil {
		return err
	}
	if err := d.fake(xproto.ButtonRelease, 1, 0, 0); err != nil {
		return err
	}
	return d.sync()
}

// typeStrokes presses and releases each stroke, with Shift around it when
// it needs Shift.
func (d *display) typeStrokes(strokes []stroke) error {
	k, err := d.keymap()
	if err != nil {
		return err
	}
	shift, haveShift := k.shiftCode()
	for _, s := range strokes {
		if s.shift && !haveShift {
			return protocol.Errorf(protocol.CodeKeyNotAllowed, "This keyboard has no Shift key, so the helper cannot type capitals.")
		}
		if s.shift {
			if err := d.fake(xproto.KeyPress, byte(shift), 0, 0); err != nil {
				return err
			}
		}
		if err := d.fake(xproto.KeyPress, byte(s.code), 0, 0); err != nil {
			return err
		}
		if err := d.fake(xproto.KeyRelease, byte(s.code), 0, 0); err != nil {
			return err
		}
		if s.shift {
			if err := d.fake(xproto.KeyRelease, byte(shift), 0, 0); err != nil {
				return err
			}
		}
	}
	return d.sync()
}

// typeText types text with XTEST key events, never the clipboard.
func (d *display) typeText(text string) error {
	strokes, added, err := d.plan(text)
	if err != nil {
		return err
	}
	if err := d.remap(added); err != nil {
		return protocol.Errorf(protocol.CodeKeyNotAllowed, "The keyboard could not be prepared for the value's characters, so nothing was typed.").WithDetail(err)
	}
	return d.typeStrokes(strokes)
}

// key presses one named key or one character.
func (d *display) key(name string) error {
	if sym, ok := namedKeysyms[name]; ok {
		k, err := d.keymap()
		if err != nil {
			return err
		}
		code, shift, ok := k.find(sym)
		if !ok {
			return protocol.Errorf(protocol.CodeKeyNotAllowed, "This keyboard has no %s key, so nothing was pressed.", name)
		}
		return d.typeStrokes([]stroke{{code, shift}})
	}
	return d.typeText(name)
}

// repeat presses one named key n times.
func (d *display) repeat(name string, n int) error {
	k, err := d.keymap()
	if err != nil {
		return err
	}
	code, shift, ok := k.find(namedKeysyms[name])
	if !ok {
		return protocol.Errorf(protocol.CodeKeyNotAllowed, "This keyboard has no %s key, so the field was not cleared.", name)
	}
	strokes := make([]stroke, n)
	for i := range strokes {
		strokes[i] = stroke{code, shift}
	}
	return d.typeStrokes(strokes)
}
