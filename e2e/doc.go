// Package e2e runs buddi serve as a process against real Chromium and uses it
// the way an agent, the owner and an MCP client would: over HTTP on
// 127.0.0.1, with the test's own pages served as preview origins.
package e2e
