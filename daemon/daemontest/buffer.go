package daemontest

import (
	"bytes"
	"sync"
)

// Buffer collects a process's output as it runs, safe to read meanwhile.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
