package session

import (
	"bytes"
	"hash/maphash"
	"image"
	"image/jpeg"
	"runtime"
	"sync"
)

// Sizes of the smaller copies of a screenshot the session keeps: the
// thumbnails of the agent's screenshots, and the owner's snapshot.
const (
	thumbEdge    = 320
	thumbQuality = 60
	snapEdge     = 800
	snapQuality  = 70
)

// thumbnail returns a small JPEG of a screenshot, or nil when it cannot be
// read. It runs off the mailbox, in the goroutine that took the screenshot.
func thumbnail(img []byte) []byte { return scaled(img, thumbEdge, thumbQuality, nil) }

// scaling bounds how many pictures are decoded at once to the cores there
// are: a decoded screenshot takes a megabyte or more and the work is all
// CPU, so on a loaded machine dozens of sessions' pictures decoded at once
// only held that memory while they waited for a core (80 MB of them in the
// load test's heap).
var scaling = make(chan struct{}, runtime.GOMAXPROCS(0))

// scaled returns img with its longest edge at most edge pixels, or nil when
// it cannot be read, or when quit closes before a core is free for it. A
// picture already small enough is returned as it is.
func scaled(img []byte, edge, quality int, quit <-chan struct{}) []byte {
	if out, ok := scales.get(img, edge, quality); ok {
		select {
		case <-quit:
			return nil
		default:
			return out
		}
	}
	select {
	case scaling <- struct{}{}:
	case <-quit:
		return nil
	}
	defer func() { <-scaling }()
	// Look again: while this waited for a core, another session may have
	// scaled the same picture (a thousand sessions' first pictures of the
	// same page, all at once, each decoded it).
	if out, ok := scales.get(img, edge, quality); ok {
		return out
	}
	out := scale(img, edge, quality)
	scales.put(img, edge, quality, out)
	return out
}

// scale decodes img and encodes it again with its longest edge at most edge.
func scale(img []byte, edge, quality int) []byte {
	src, err := jpeg.Decode(bytes.NewReader(img))
	if err != nil {
		return nil
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return nil
	}
	if max(w, h) <= edge {
		return img
	}
	tw, th := max(1, w*edge/max(w, h)), max(1, h*edge/max(w, h))
	var out bytes.Buffer
	if err := jpeg.Encode(&out, sample(src, tw, th), &jpeg.Options{Quality: quality}); err != nil {
		return nil
	}
	// A copy of its length: the buffer grew by doubling, and the session
	// keeps the picture for as long as it lives.
	return bytes.Clone(out.Bytes())
}

// sample picks the nearest source pixel for each of tw×th. The pictures a
// browser gives are YCbCr or grey, whose planes are read directly: the
// generic path costs an interface call per pixel, which is slow enough to
// matter for a picture after every act.
func sample(src image.Image, tw, th int) image.Image {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	xs, ys := make([]int, tw), make([]int, th)
	for x := range xs {
		xs[x] = b.Min.X + x*w/tw
	}
	for y := range ys {
		ys[y] = b.Min.Y + y*h/th
	}
	switch s := src.(type) {
	case *image.YCbCr:
		dst := image.NewYCbCr(image.Rect(0, 0, tw, th), image.YCbCrSubsampleRatio444)
		for y, sy := range ys {
			for x, sx := range xs {
				yi, ci, di := s.YOffset(sx, sy), s.COffset(sx, sy), y*dst.YStride+x
				dst.Y[di], dst.Cb[di], dst.Cr[di] = s.Y[yi], s.Cb[ci], s.Cr[ci]
			}
		}
		return dst
	case *image.Gray:
		dst := image.NewGray(image.Rect(0, 0, tw, th))
		for y, sy := range ys {
			for x, sx := range xs {
				dst.Pix[y*dst.Stride+x] = s.Pix[s.PixOffset(sx, sy)]
			}
		}
		return dst
	}
	dst := image.NewRGBA(image.Rect(0, 0, tw, th))
	for y, sy := range ys {
		for x, sx := range xs {
			dst.Set(x, y, src.At(sx, sy))
		}
	}
	return dst
}

// scales remembers the last pictures scaled, so a page that did not change
// (the same screenshot again, the common case of an owner's picture taken a
// second after the last one, and always so with the sim driver) is not
// decoded and encoded again: that took 20 ms of CPU a picture, most of the
// daemon's CPU under load. An entry is found by a hash of the picture and
// confirmed by comparing its bytes, so the answer is the one scaling gives.
var scales = &scaleCache{seed: maphash.MakeSeed()}

const (
	scaleEntries = 8
	scaleMax     = 512 << 10 // larger pictures (full resolution) are not kept
)

type scaleCache struct {
	mu      sync.Mutex
	seed    maphash.Seed
	next    int
	entries [scaleEntries]scaleEntry
}

type scaleEntry struct {
	sum           uint64
	edge, quality int
	in, out       []byte
}

func (c *scaleCache) get(img []byte, edge, quality int) ([]byte, bool) {
	if len(img) > scaleMax {
		return nil, false
	}
	sum := maphash.Bytes(c.seed, img)
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.entries {
		e := &c.entries[i]
		if e.in != nil && e.sum == sum && e.edge == edge && e.quality == quality && bytes.Equal(e.in, img) {
			return e.out, true
		}
	}
	return nil, false
}

// put keeps out as img scaled, unless img could not be read. The callers
// of scaled only read the pictures, so the entry holds them as they are.
func (c *scaleCache) put(img []byte, edge, quality int, out []byte) {
	if len(img) > scaleMax || out == nil {
		return
	}
	sum := maphash.Bytes(c.seed, img)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[c.next] = scaleEntry{sum: sum, edge: edge, quality: quality, in: img, out: out}
	c.next = (c.next + 1) % scaleEntries
}

// forget drops every entry (tests that need a picture to be scaled anew).
func (c *scaleCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = [scaleEntries]scaleEntry{}
}
