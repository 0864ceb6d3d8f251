package mcp_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// MCP over stdio and HTTP forwards to the API.
func TestMCPImportsOnlyTheClientTheContractAndOrigins(t *testing.T) {
	deptest.Only(t, "ui/mcp", map[string]string{
		"apiclient": "the stdio bridge forwards through the one client",
		"messages":  "the contract: answers, codes, events and the messages it takes",
		"ui/limit":  "the rate at which an agent opens MCP sessions",
		"ui/origin": "the HTTP handler checks Host and Origin",
	})
}
