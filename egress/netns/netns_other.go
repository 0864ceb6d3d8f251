//go:build !linux

package netns

// New is not supported outside Linux.
func New() (*Namespace, error) { return nil, ErrUnsupported }

// Path is empty outside Linux.
func (n *Namespace) Path() string { return "" }

func (n *Namespace) run(func()) error { return ErrUnsupported }
