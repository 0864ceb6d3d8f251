package messages

// Agent management and health, answered with *OwnerReply.

// AddAgent registers an agent; the reply's Result carries its token once.
type AddAgent struct {
	Name        string
	AutoApprove bool
}

// RemoveAgent deletes an agent and its grants.
type RemoveAgent struct{ Name string }

// ListAgents lists agents (never their tokens).
type ListAgents struct{}

// Health asks the controller for what /healthz shows.
type Health struct{}

// HealthInfo answers Health.
type HealthInfo struct {
	Mode     string `json:"mode"`
	Stopped  bool   `json:"stopped"`
	Sessions int    `json:"sessions"`
	Restarts int    `json:"restarts"`
}
