package handwire

import (
	"encoding/binary"
	"errors"
	"math"
)

// FrameHeaderSize is the length of a hand frame's header; the JPEG
// follows it.
const FrameHeaderSize = 36

// FrameVersion is the header's first byte.
const FrameVersion = 1

// FrameHeader is what the tab needs to draw a frame and map a pointer
// on it back to the page: which frame (Seq, acked back), the page's size in
// CSS pixels, its scale and offsets when the picture was taken, and when.
// Little-endian: version u8, step u8, seq u32, time f64 (ms since the
// epoch), page width u16, page height u16, scale f32, offset top f32,
// scroll x f32, scroll y f32, two reserved bytes.
type FrameHeader struct {
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

// EncodeFrame is one binary message: the header, then the JPEG.
func EncodeFrame(h FrameHeader, jpeg []byte) []byte {
	b := make([]byte, FrameHeaderSize, FrameHeaderSize+len(jpeg))
	le := binary.LittleEndian
	b[0], b[1] = FrameVersion, h.Step
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

// ErrFrame is a message that is not a hand frame.
var ErrFrame = errors.New("handwire: not a hand frame")

// DecodeFrame splits a binary message into its header and JPEG.
func DecodeFrame(b []byte) (FrameHeader, []byte, error) {
	if len(b) < FrameHeaderSize || b[0] != FrameVersion {
		return FrameHeader{}, nil, ErrFrame
	}
	le := binary.LittleEndian
	f32 := func(i int) float32 { return math.Float32frombits(le.Uint32(b[i:])) }
	h := FrameHeader{Step: b[1], Seq: le.Uint32(b[2:]), TimeMs: math.Float64frombits(le.Uint64(b[6:])),
		PageWidth: le.Uint16(b[14:]), PageHeight: le.Uint16(b[16:]),
		Scale: f32(18), OffsetTop: f32(22), ScrollX: f32(26), ScrollY: f32(30)}
	return h, b[FrameHeaderSize:], nil
}
