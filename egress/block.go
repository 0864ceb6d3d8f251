package egress

import (
	"strings"
	"sync"
	"unsafe"
)

// Block is FenceMaskedAfter written in place: the caller writes the text
// read from the page straight into the block, between the opening line
// Open wrote and the closing line Close writes, so that a reading without
// secrets, in valid UTF-8 and without the owner's secrets (a page's usual
// reading) is copied once, where FenceMaskedAfter copies it twice. Close
// gives what FenceMaskedAfter gives for the same text, byte for byte; a
// reading that needs masking is masked and fenced by it. A Block is not
// copied once opened.
//
// The block is written in memory taken from a pool. Once closed, Lease
// hands that memory to the holder of the text, who gives it back with
// Free when nothing reads the text any more: the answer's text is then
// not an allocation of its own on every act.
type Block struct {
	t      *Text
	head   string
	kind   string
	tag    string
	start  int           // where the text begins in t
	plain  bool          // Close gave t's own memory as the block
	newTag func() string // the source of tags; fenceTag but in tests
}

// Open begins the block after head, with room for size bytes of text.
func (k *Block) Open(head, kind string, size int) {
	if k.newTag == nil {
		k.newTag = fenceTag
	}
	k.head, k.kind, k.tag = head, kind, k.newTag()
	k.t = newText(len(head) + size + 128)
	k.t.WriteString(head)
	openLine(k.t, kind, k.tag)
	k.start = k.t.Len()
}

// Text is where the page's text is written, after the opening line.
func (k *Block) Text() *Text { return k.t }

// Len is how many bytes of text were written.
func (k *Block) Len() int { return k.t.Len() - k.start }

// Close ends the block and returns it with the values it masked, as
// FenceMaskedAfter(head, kind, text, owned) does.
func (k *Block) Close(owned []string) (string, []string) {
	text := k.t.String()[k.start:]
	if !k.isPlain(text, owned) {
		tags := k.tag
		// The masked values are pieces of text: the block's memory stays
		// theirs, and nothing is lent.
		k.t = nil
		return fenceMasked(k.head, k.kind, text, owned, func() string {
			if t := tags; t != "" {
				tags = ""
				return t
			}
			return k.newTag()
		})
	}
	if !strings.HasSuffix(text, "\n") {
		k.t.WriteByte('\n')
	}
	closeLine(k.t, k.tag)
	k.plain = true
	return k.t.String(), nil
}

// Lease hands the memory of the block Close gave to its caller, who frees
// it once nothing reads the block any more; nil when the block lies in
// memory of its own (a masked reading), or when Close did not run.
func (k *Block) Lease() *Text {
	if !k.plain {
		return nil
	}
	t := k.t
	k.t, k.plain = nil, false
	return t
}

// Drop gives the memory of a block that is not closed back to the pool:
// its text is not used.
func (k *Block) Drop() {
	if !k.plain {
		k.t.Free()
	}
	k.t = nil
}

// isPlain says whether fenceMasked would leave text as it is and keep the
// tag Open chose: no private key, no token that looks like a secret, no
// bytes that are not UTF-8, none of owned and not the tag.
func (k *Block) isPlain(text string, owned []string) bool {
	if strings.Contains(text, "PRIVATE KEY") || strings.Contains(text, k.tag) {
		return false
	}
	if s := scanSecrets(text); len(s.spans) > 0 || s.invalid {
		return false
	}
	for _, v := range owned {
		if len(v) >= MinOwned && strings.Contains(text, v) {
			return false
		}
	}
	return true
}

// Text is text being written, as a strings.Builder writes it: bytes are
// only ever added, so a string String gave stays what it was. A Text from
// a Block's Lease goes back to the pool with Free, after which neither it
// nor any string it gave may be read.
type Text struct{ buf []byte }

// maxKept is the largest Text the pool keeps: a rare page's reading of a
// megabyte is not kept for the next answer's few KB.
const maxKept = 64 << 10

var texts = sync.Pool{New: func() any { return new(Text) }}

// minKept is the least room a pooled Text is made with: an outcome's few
// hundred bytes and an observation's few KB then share the same memory,
// rather than each taking the other's and making it anew.
const minKept = 4 << 10

// newText is an empty Text from the pool, with room for size bytes.
func newText(size int) *Text {
	t := texts.Get().(*Text)
	if cap(t.buf) < size {
		t.buf = make([]byte, 0, max(size, minKept))
	}
	return t
}

// Free gives t's memory back to the pool; nil frees nothing.
func (t *Text) Free() {
	if t == nil {
		return
	}
	if cap(t.buf) > maxKept {
		t.buf = nil
	}
	t.buf = t.buf[:0]
	texts.Put(t)
}

// WriteString adds s.
func (t *Text) WriteString(s string) (int, error) {
	t.buf = append(t.buf, s...)
	return len(s), nil
}

// WriteByte adds c.
func (t *Text) WriteByte(c byte) error {
	t.buf = append(t.buf, c)
	return nil
}

// Write adds p.
func (t *Text) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// Len is how many bytes were written.
func (t *Text) Len() int { return len(t.buf) }

// String is what was written, without a copy: t only ever adds bytes
// after it, until it is freed.
func (t *Text) String() string { return unsafe.String(unsafe.SliceData(t.buf), len(t.buf)) }
