package daemon_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The daemon is the composition root: it may import every part it wires,
// and nothing imports it but the two programs that start buddi and the
// test helper that starts it in process.
func TestDaemonImportsOnlyWhatItWires(t *testing.T) {
	deptest.Only(t, "daemon", map[string]string{
		"actors":             "the actor system, with the logger routed",
		"actors/controller":  "it starts the controller",
		"actors/desktop":     "it starts the desktop lock, and Use my apps' driver asks it",
		"actors/extconn":     "it starts the extension connection, and Your browser's driver calls it",
		"actors/gateway":     "the actors' client the surfaces are handed",
		"actors/hand":        "the hand of a take-over, made for the controller",
		"actors/ledger":      "it opens the store and starts the ledger",
		"actors/limits":      "the agents' rates, shared by the controller, its sessions and the browser's own refusals",
		"actors/routes":      "the routing table the controller writes and the gateway reads",
		"actors/session":     "the sessions' work off their mailboxes, which shutdown ends and waits for",
		"actors/stop":        "it starts the one owner of the Stop",
		"cluster/member":     "with --cluster it starts the member, the one way it reaches the cluster",
		"config":             "it starts from a configuration",
		"doctor":             "the settings page's checks",
		"drivers":            "the modes",
		"drivers/extension":  "Your browser's mode",
		"drivers/native":     "Use my apps' mode",
		"drivers/playwright": "the Playwright mode",
		"drivers/sim":        "the one place production code chooses the simulated driver",
		"drivers/walker":     "the typing check both browser drivers hold fields to",
		"egress":             "the URL rules and the guard",
		"events":             "the bus",
		"extension":          "the extension's folder and ids",
		"instance":           "the data directory's lock and the owner token",
		"messages":           "the contract",
		"metrics":            "the registry /metrics reads",
		"native/protocol":    "Use my apps' approvals are by app",
		"secret":             "the owner's vault, which sessions fill from and the dashboard manages",
		"settings":           "the owner's settings and the mode root",
		"tailnet":            "buddi's tailnet node (-tags tailnet), which the HTTP surface serves on",
		"ui":                 "the HTTP surface",
		"ui/audit":           "the audit trail every surface records through",
		"ui/limit":           "the sign-in limiter the surfaces share",
		"ui/telegram":        "the Telegram surface",
	})
}

func TestOnlyTheProgramsAndTheirHelperImportTheDaemon(t *testing.T) {
	allowed := []string{"cmd/buddi", "loadtest", "daemon/daemontest"}
	for _, pkg := range deptest.Importers(t, deptest.Module+"/daemon") {
		if !slices.Contains(allowed, strings.TrimPrefix(pkg, deptest.Module+"/")) {
			t.Errorf("%s imports daemon; only %v may (a part is wired by the daemon, never the other way)", pkg, allowed)
		}
	}
}

// The daemon starts the cluster's member and holds none of its behaviour:
// no cluster_*.go file (the member lives in cluster/member).
func TestTheDaemonHoldsNoClusterFile(t *testing.T) {
	files, err := filepath.Glob("cluster*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if !strings.HasSuffix(name, "_test.go") {
			t.Errorf("%s: the cluster's behaviour lives in cluster/member, not in the daemon", name)
		}
	}
}

// The daemon wires actors and defines none: no type of its has a Receive,
// and it makes no actor's props; actors live under actors/.
func TestTheDaemonDefinesNoActor(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Recv != nil && n.Name.Name == "Receive" {
					t.Errorf("%s: %s defines Receive: the daemon defines no actor", fset.Position(n.Pos()), name)
				}
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "actor" && strings.HasPrefix(n.Sel.Name, "PropsFrom") {
					t.Errorf("%s: actor.%s makes an actor in the daemon; actors live under actors/", fset.Position(n.Pos()), n.Sel.Name)
				}
			}
			return true
		})
	}
}
