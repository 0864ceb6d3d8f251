package ledger

import (
	"testing"
	"time"
)

// An order is remembered for at least lastLife while writes go on; once
// nothing was written for lastLife every order is older than that, and an
// idle ledger forgets them all at once, not only the older generation.
func TestOrdersOfAnIdleLedgerAreForgotten(t *testing.T) {
	busy := newOrders()
	t0 := busy.rotated
	busy.put("task/a", 7)
	busy.put("task/b", 8)
	busy.wroteAt(t0.Add(lastLife - time.Second))
	busy.rotate(t0.Add(lastLife))
	if busy.get("task/a") != 7 || busy.get("task/b") != 8 {
		t.Fatal("a ledger written to within lastLife forgot orders at the first rotation")
	}

	idle := newOrders()
	t0 = idle.rotated
	idle.put("task/a", 7)
	idle.wroteAt(t0)
	idle.rotate(t0.Add(lastLife / 2))
	if idle.get("task/a") != 7 {
		t.Fatal("an order was forgotten before lastLife passed")
	}
	idle.rotate(t0.Add(lastLife))
	if n := len(idle.cur) + len(idle.old); n != 0 {
		t.Fatalf("a ledger idle for lastLife still remembers %d orders", n)
	}
}
