package actors

import "time"

// Delay exposes the backoff delay to the black-box tests.
func Delay(b *Backoff, failures int) time.Duration { return b.delay(failures) }
