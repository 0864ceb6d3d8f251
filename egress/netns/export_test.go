package netns

// Run calls f on a thread inside the namespace.
func (n *Namespace) Run(f func()) error { return n.run(f) }
