package messages

import (
	"encoding/binary"
	"errors"
	"math"
)

// HandFrameHeaderSize is the length of a hand frame's header; the JPEG
// follows it.
const HandFrameHeaderSize = 36

// HandFrameVersion is the header's first byte.
const HandFrameVersion = 1

// HandFrameHeader is what the tab needs to draw a frame and map a pointer
// on it back to the page: which frame (Seq, acked back), the page's size in
// CSS pixels, its scale and offsets when the picture was taken, and when.
// Little-endian: version u8, step u8, seq u32, time f64 (ms since the
// epoch), page width u16, page height u16, scale f32, offset top f32,
// scroll x f32, scroll y f32, two reserved bytes.
type HandFrameHeader struct {
	Step       uint8 // quality step: 0 full, 1 reduced
	Seq        uint32
	TimeMs     float64
	PageWidth  uint16
	PageHeight uint16
	Scale      float32
	OffsetTop  float32
	ScrollX    float32
	ScrollY    float32
}

// EncodeHandFrame is one binary message: the header, then the JPEG.
func EncodeHandFrame(h HandFrameHeader, jpeg []byte) []byte {
	b := make([]byte, HandFrameHeaderSize, HandFrameHeaderSize+len(jpeg))
	le := binary.LittleEndian
	b[0], b[1] = HandFrameVersion, h.Step
	le.PutUint32(b[2:], h.Seq)
	le.PutUint64(b[6:], math.Float64bits(h.TimeMs))
	le.PutUint16(b[14:], h.PageWidth)
	le.PutUint16(b[16:], h.PageHeight)
	le.PutUint32(b[18:], math.Float32bits(h.Scale))
	le.PutUint32(b[22:], math.Float32bits(h.OffsetTop))
	le.PutUint32(b[26:], math.Float32bits(h.ScrollX))
	le.PutUint32(b[30:], math.Float32bits(h.ScrollY))
	return append(b, jpeg...)
}

// ErrHandFrame is a message that is not a hand frame.
var ErrHandFrame = errors.New("messages: not a hand frame")

// DecodeHandFrame splits a binary message into its header and JPEG.
func DecodeHandFrame(b []byte) (HandFrameHeader, []byte, error) {
	if len(b) < HandFrameHeaderSize || b[0] != HandFrameVersion {
		return HandFrameHeader{}, nil, ErrHandFrame
	}
	le := binary.LittleEndian
	f32 := func(i int) float32 { return math.Float32frombits(le.Uint32(b[i:])) }
	h := HandFrameHeader{Step: b[1], Seq: le.Uint32(b[2:]), TimeMs: math.Float64frombits(le.Uint64(b[6:])),
		PageWidth: le.Uint16(b[14:]), PageHeight: le.Uint16(b[16:]),
		Scale: f32(18), OffsetTop: f32(22), ScrollX: f32(26), ScrollY: f32(30)}
	return h, b[HandFrameHeaderSize:], nil
}
