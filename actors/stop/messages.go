package stop

// Follow asks to be told every decision (Changed), first the one in force;
// the controller sends it as it starts, and again after each restart.
type Follow struct{}

// Changed tells the follower the View: refuse agents while it is stopped,
// and fan out a decision it has not fanned out yet, then answer Settled
// with its Gen. Sent also when only the cluster's part changed.
type Changed struct{ View View }

// Settled says the follower fanned decision Gen out: Sessions sessions
// dropped their work and closed their tabs.
type Settled struct {
	Gen      uint64
	Sessions int
}
