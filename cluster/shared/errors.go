package shared

import (
	"errors"
	"fmt"
	"strings"
)

// ErrClosed is returned by calls on a Store after Close.
var ErrClosed = errors.New("shared: the shared state store is closed")

// MalformedError says a stored value could not be decoded. The state it
// stands for is treated as stopped.
type MalformedError struct {
	Key   string
	Value []byte
	Err   error
}

func (e *MalformedError) Error() string {
	return fmt.Sprintf("The Stop flag stored in etcd at %s could not be read (%v), so buddi treats every host as stopped until an owner sets Stop or resume again.", e.Key, e.Err)
}

func (e *MalformedError) Unwrap() error { return e.Err }

// UnreachableError says etcd could not be reached within the deadline.
type UnreachableError struct {
	Endpoints []string
	Err       error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("etcd at %s cannot be reached (%v); this host refuses new work until it can.", strings.Join(e.Endpoints, ", "), e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// ContendedError says a write lost its revision check on every attempt
// because other hosts kept changing the key; nothing of it was committed.
type ContendedError struct {
	Key      string
	Attempts int
}

func (e *ContendedError) Error() string {
	return fmt.Sprintf("Other hosts changed %s %d times while this one tried to write it, so nothing was written; try again.", e.Key, e.Attempts)
}
