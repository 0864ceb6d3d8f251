package ledger

import (
	"errors"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Retry bounds of Persist.
const (
	attemptWait = 5 * time.Second       // one attempt's deadline
	retryFirst  = 50 * time.Millisecond // first pause between attempts
	retryMax    = 2 * time.Second       // longest pause between attempts
)

// ErrNotSaved is what Persist answers when its write has not landed by the
// time it must answer; the write is still being tried.
var ErrNotSaved = errors.New("the store has not confirmed it yet")

// Persist writes w, retrying until it lands: what the owner decided is in
// force already and must become durable however long the ledger takes.
// answer is called once, off the caller's goroutine: with nil when the
// write landed within answerBy, else with ErrNotSaved at answerBy (the
// attempts go on). Persist gives up only when the ledger is gone. Every
// attempt sends the same ops, so a late duplicate is skipped as stale.
func Persist(sys *actor.ActorSystem, pid *actor.PID, w *Write, answerBy time.Duration, answer func(error)) {
	var once sync.Once
	reply := func(err error) { once.Do(func() { answer(err) }) }
	timer := time.AfterFunc(answerBy, func() { reply(ErrNotSaved) })
	go func() {
		pause := retryFirst
		for {
			err := Check(Request(sys.Root, pid, w, attemptWait).Result())
			if err == nil || errors.Is(err, actor.ErrDeadLetter) {
				timer.Stop()
				reply(err)
				return
			}
			time.Sleep(pause)
			pause = min(2*pause, retryMax)
		}
	}()
}
