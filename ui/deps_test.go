package ui_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The surfaces see the contract and the actors' client, nothing inside.
var surfaceRules = map[string]string{
	deptest.Module + "/actors":  "surfaces import no actor internals; they use the actors' client",
	deptest.Module + "/drivers": "surfaces never touch a driver",
	deptest.Module + "/daemon":  "surfaces are wired by the daemon, not the other way",
	"github.com/asynkron":       "surfaces do not speak to actors themselves",
}

func TestUIImportsOnlyTheContract(t *testing.T) {
	for _, pkg := range []string{"ui", "ui/audit", "ui/mcp", "ui/telegram", "ui/journal", "ui/limit", "ui/origin", "ui/web"} {
		deptest.Check(t, deptest.Module+"/"+pkg, surfaceRules)
	}
}

// The dashboard's bundler (esbuild) builds the checked-in front end; the
// binary embeds the result and never links the bundler.
func TestTheBinaryDoesNotLinkTheBundler(t *testing.T) {
	deptest.Check(t, deptest.Module+"/cmd/buddi", map[string]string{
		"github.com/evanw/esbuild":        "the front end is bundled by go generate, not at run time",
		deptest.Module + "/ui/web/bundle": "the front end is bundled by go generate, not at run time",
	})
}

// The HTTP surface sees the contract, the bus and its own parts; the actors only through ui.Actors.
func TestTheHTTPSurfaceImportsOnlyTheContractAndItsParts(t *testing.T) {
	deptest.Only(t, "ui", map[string]string{
		"config":            "serve's address rules are the configuration's",
		"events":            "the dashboard socket follows the bus",
		"internal/bounded":  "a request's deadline, its timer armed only when waited on",
		"messages":          "the contract",
		"messages/extwire":  "the extension socket's wire: it decodes what the extension sends",
		"messages/handwire": "the hand socket's wire: frames out, input in",
		"metrics":           "/metrics",
		"secret":            "sign-in tokens are hashed there",
		"ui/journal":        "the dashboard's journal",
		"ui/limit":          "the sign-in limiter",
		"ui/mcp":            "MCP over HTTP",
		"ui/origin":         "Host and Origin checks",
		"ui/web":            "the embedded dashboard",
	})
}
