package messages

import "time"

// ClusterStop is what a cluster member's watch of etcd last learned of the
// shared Stop, sent to the controller. Reachable false means etcd did not
// answer: the member refuses new work until it does. Stopped and At are
// the flag as etcd holds it, and count only while Reachable.
type ClusterStop struct {
	Reachable bool
	Stopped   bool
	At        time.Time
	// Why says what went wrong when Reachable is false.
	Why string
}
