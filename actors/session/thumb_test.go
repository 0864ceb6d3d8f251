package session

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"runtime"
	"testing"
)

func jpegOf(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestScaledKeepsTheShapeAndTheColours(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	for y := range 720 {
		for x := range 1280 {
			c := color.RGBA{R: 200, G: 30, B: 30, A: 255}
			if x >= 640 {
				c = color.RGBA{R: 30, G: 30, B: 200, A: 255}
			}
			src.Set(x, y, c)
		}
	}
	for name, raw := range map[string][]byte{"colour": jpegOf(t, src), "grey": jpegOf(t, image.NewGray(image.Rect(0, 0, 1280, 720)))} {
		out, err := jpeg.Decode(bytes.NewReader(scaled(raw, snapEdge, snapQuality, nil)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := out.Bounds(); b.Dx() != 800 || b.Dy() != 450 {
			t.Fatalf("%s: scaled to %v, want 800x450", name, b)
		}
		if name != "colour" {
			continue
		}
		if r, _, bl, _ := out.At(100, 200).RGBA(); r>>8 < 150 || bl>>8 > 80 {
			t.Fatalf("the left half is not red any more: %v", out.At(100, 200))
		}
		if r, _, bl, _ := out.At(700, 200).RGBA(); bl>>8 < 150 || r>>8 > 80 {
			t.Fatalf("the right half is not blue any more: %v", out.At(700, 200))
		}
	}
	small := jpegOf(t, image.NewGray(image.Rect(0, 0, 300, 200)))
	if !bytes.Equal(scaled(small, snapEdge, snapQuality, nil), small) {
		t.Fatal("a picture already small enough was encoded again")
	}
}

// TestScaledAgainIsTheSameWithoutACore scales a picture, holds every
// core's slot, and scales the same picture (a copy of its bytes) again: the
// answer comes without a slot and is the first one, while a different
// picture of the same size, or the same at another size, still waits for
// a slot.
func TestScaledAgainIsTheSameWithoutACore(t *testing.T) {
	scales.forget()
	raw := jpegOf(t, image.NewGray(image.Rect(0, 0, 1280, 720)))
	first := scaled(raw, snapEdge, snapQuality, nil)
	if first == nil {
		t.Fatal("the picture was not scaled")
	}
	for range cap(scaling) {
		scaling <- struct{}{}
	}
	t.Cleanup(func() {
		for range cap(scaling) {
			<-scaling
		}
	})
	if again := scaled(bytes.Clone(raw), snapEdge, snapQuality, nil); !bytes.Equal(again, first) {
		t.Fatal("the same picture scaled again gave another answer")
	}
	other := bytes.Clone(raw)
	other[len(other)/2] ^= 0xff
	quit := make(chan struct{})
	close(quit)
	if got := scaled(other, snapEdge, snapQuality, quit); got != nil {
		t.Fatal("a different picture was taken for the one scaled before")
	}
	if got := scaled(raw, thumbEdge, thumbQuality, quit); got != nil {
		t.Fatal("a thumbnail was answered with the owner's picture")
	}
}

// TestScaledLooksAgainAfterWaitingForACore holds every core's slot while
// a picture waits for one, keeps an answer for that picture meanwhile (as
// another session scaling the same page would), and frees a slot: the
// waiting picture is answered with what was kept, not decoded again.
func TestScaledLooksAgainAfterWaitingForACore(t *testing.T) {
	scales.forget()
	t.Cleanup(scales.forget)
	raw := jpegOf(t, image.NewGray(image.Rect(0, 0, 1280, 720)))
	for range cap(scaling) {
		scaling <- struct{}{}
	}
	got := make(chan []byte)
	go func() { got <- scaled(raw, snapEdge, snapQuality, nil) }()
	for !waitingForCore() {
		runtime.Gosched()
	}
	kept := []byte("kept by another session")
	scales.put(raw, snapEdge, snapQuality, kept)
	<-scaling
	if out := <-got; !bytes.Equal(out, kept) {
		t.Fatalf("the picture was scaled again (%d bytes) after another session scaled it", len(out))
	}
	for range cap(scaling) - 1 {
		<-scaling
	}
}

// waitingForCore says whether a goroutine waits in scaled for a slot.
func waitingForCore() bool {
	buf := make([]byte, 1<<20)
	for _, g := range bytes.Split(buf[:runtime.Stack(buf, true)], []byte("\n\n")) {
		if (bytes.Contains(g, []byte("[chan send")) || bytes.Contains(g, []byte("[select"))) && bytes.Contains(g, []byte("session.scaled(")) {
			return true
		}
	}
	return false
}
