// Package netns gives the agents' browser a network of its own: a Linux
// network namespace whose only interface is loopback, and whose only way
// out is one listening socket made inside it. The egress guard, which runs
// in the host's namespace, serves that socket, so the browser reaches the
// guard and nothing else: no UDP (WebRTC, QUIC), no host address, no
// loopback service of the host, whatever the browser's own settings say.
//
// A socket keeps the namespace it was made in, wherever it is used from:
// New makes the namespace on a thread of its own, makes the listener there,
// and leaves the thread to die with its goroutine. The browser side joins
// the namespace through Path (setns), which needs root.
//
// Concurrency: a Namespace is safe for concurrent use. The listener
// belongs to whoever serves it (the guard closes it); Close releases the
// namespace itself, which lives on while a process is inside it.
package netns
