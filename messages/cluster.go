package messages

import "time"

// ClusterStop is what a cluster member's watch of etcd last learned of the
// shared Stop, sent to the stop actor. Reachable false means etcd did not
// answer: the member refuses new work until it does. Stopped and At are
// the flag as etcd holds it, committed at revision Rev (0: never written),
// and count only while Reachable.
type ClusterStop struct {
	Reachable bool
	Stopped   bool
	At        time.Time
	Rev       int64
	// Why says what went wrong when Reachable is false.
	Why string
}

// ClusterMembers is the cluster's member list as this member's watch of
// etcd last read it, sent to the controller for /healthz. Self is this
// member's id.
type ClusterMembers struct {
	Self    string
	Members []ClusterMember
}

// ClusterLapsed tells the controller this member's entry in the member
// list conversations are routed by lapsed At (etcd heard no keep-alive for
// its whole lease) and was written again: the members that saw it go route
// nothing to it until it restarts.
type ClusterLapsed struct{ At time.Time }

// ClusterRoutes tells the controller the cluster addresses of the members
// this member places conversations on, itself included: those of the
// member list that proved they hold the cluster's key.
type ClusterRoutes struct{ Addresses []string }

// ClusterMember is one member of a cluster: its id (stable for its data
// directory), the address it is reached at and its capacity. Self marks
// the member that answers.
type ClusterMember struct {
	ID       string    `json:"id"`
	Address  string    `json:"address"`
	Capacity Capacity  `json:"capacity"`
	Since    time.Time `json:"since,omitzero"`
	Self     bool      `json:"self,omitempty"`
}

// Capacity is how much browser work a host holds and has room for.
type Capacity struct {
	Profiles Slots `json:"profiles"`
	Sessions Slots `json:"sessions"`
}

// Slots counts one kind of room: how many there are, in use and free.
type Slots struct {
	Total int `json:"total"`
	InUse int `json:"inUse"`
	Free  int `json:"free"`
}

// NewSlots counts inUse of total, free being what is left (never below 0).
func NewSlots(total, inUse int) Slots {
	return Slots{Total: total, InUse: inUse, Free: max(total-inUse, 0)}
}
