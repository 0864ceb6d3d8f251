package playwright

import (
	"testing"
	"time"
)

// The hold's rules, step by step: a held tab refuses documents; a response
// let through counts as arriving until, after its commit, the page has
// loaded and painted (or a second after its load, or once the tab asks for
// another document, or when the arrival window ends), and a stop is left
// out meanwhile; holds nest, and none outlives its end.
func TestTheHoldRefusesWhileHeldAndKnowsWhatArrives(t *testing.T) {
	var h hold
	if h.refuses() || h.inFlight() {
		t.Fatal("a fresh tab refuses documents or has one arriving")
	}
	if !h.admit() || !h.inFlight() {
		t.Fatal("a response let through is not counted as arriving")
	}
	h.loaded() // what the document before did, heard late
	h.painted()
	h.asked()
	if !h.inFlight() {
		t.Fatal("the load or paint of the document before ended the arrival of the next")
	}
	h.committed()
	if !h.inFlight() {
		t.Fatal("a document no longer counts as arriving at its commit, before its load")
	}
	h.loaded()
	if !h.inFlight() {
		t.Fatal("a document loaded but not yet painted no longer counts as arriving")
	}
	h.painted()
	if h.inFlight() {
		t.Fatal("a document still counts as arriving after its commit, load and first paint")
	}

	if !h.admit() || !h.inFlight() {
		t.Fatal("the next response let through is not counted as arriving")
	}
	h.committed()
	h.loaded()
	h.asked() // the tab asks for another document
	if h.inFlight() {
		t.Fatal("a loaded document still counts as arriving once its tab asked for another")
	}

	if !h.admit() {
		t.Fatal("a response was refused")
	}
	h.committed()
	h.loaded()
	h.loadAt = time.Now().Add(-paintGrace)
	if h.inFlight() {
		t.Fatal("a loaded document whose paint was not heard still counts as arriving past the grace")
	}

	h.take(time.Minute)
	h.take(time.Minute)
	if !h.refuses() || h.admit() {
		t.Fatal("a held tab lets a document through")
	}
	h.drop()
	if !h.refuses() {
		t.Fatal("one of two holds dropped ended the hold")
	}
	h.drop()
	h.drop() // one drop too many changes nothing
	if h.refuses() || !h.admit() {
		t.Fatal("the tab is still held after its holds were dropped")
	}
	var late hold
	late.take(-time.Second) // a hold already past its end
	if late.refuses() {
		t.Fatal("a hold outlived its end")
	}
	h.arriveEnd = time.Now().Add(-time.Millisecond)
	if h.inFlight() {
		t.Fatal("a response counts as arriving past the arrival window")
	}
}
