// Package egress confines the agents' browser to the public web.
//
// Two layers check every destination. Guard is a SOCKS5 proxy on an
// ephemeral 127.0.0.1 port that the browser is started behind
// (ChromiumFlags): it serves CONNECT only, resolves each name itself at
// connect time, classifies every address the name has (Classify), refuses the
// connection if any of them is not public or the port is not 80 or 443, and
// then dials exactly the addresses it checked, so a DNS answer that changes
// between check and use (rebinding) cannot move the connection. It also
// applies by name, before any lookup, the URL rules that need no address
// (never-automate, the host list, air-gap), so nothing the browser sends
// before or around a URL check reaches a host those rules refuse. Policy checks
// URLs before the browser goes anywhere: every navigation, redirect and popup
// (CheckURL), with the scheme, host list, never-automate list, address and
// port rules, and site approvals (SiteOf, Approval). Refusals are *Refusal
// values with a stable Code and one sentence that says what to do next.
//
// The owner's preview origins (BUDDI_PREVIEW_ORIGINS) are the one way onto
// loopback: a preview origin's host and port, exactly as written, passes
// both layers whatever else is configured, air-gap included. Nothing else on
// this machine or its networks is reachable.
//
// No secret leaves in a URL: CheckURL refuses (secret_in_url) a URL whose
// host, path, query or fragment carries what the detectors that mask page
// text flag, or a Known value (the owner's secrets, values masked from
// pages); the guard refuses a name carrying one before any lookup, which
// covers the names of the requests CheckURL never sees.
//
// The package also holds the pure checks the driver applies to what it types
// and what it reads: CredentialField, LooksLikeSecret, CheckTyping and Fence.
//
// Concurrency: Policy is immutable once built and safe for concurrent use;
// the other functions are pure. A Guard owns its listener, one accept
// goroutine, and per client connection one serving goroutine that owns the
// SOCKS handshake, the lookup and the dial, plus the two relay goroutines
// go-socks5 starts once the destination is connected. A connection's
// handshake is bounded by HandshakeTimeout; after it, a watchdog closes both
// ends once no byte has moved either way for IdleTimeout. Close stops
// accepting, cancels lookups and dials in flight, closes every live
// connection, and waits for all of those goroutines. Stop the guard after the
// browser that uses it (sessions, then egress), so that no page is left with a
// dead proxy while an agent watches.
package egress
