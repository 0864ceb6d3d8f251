package member_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The member is the cluster's composition: it joins this buddi's own
// actors to the shared state and the grains. It reaches the actors only
// through what the daemon hands it (their client, the routing table, the
// store to read, the bus, and the PIDs it feeds), and knows nothing of the
// surfaces or the modes.
func TestMemberImportsOnlyWhatItJoins(t *testing.T) {
	deptest.Only(t, "cluster/member", map[string]string{
		"actors":            "its actor system's registry is compacted as the daemon's is",
		"actors/controller": "it feeds the controller the cluster's agents, site answers and members, and adopts a moved task",
		"actors/gateway":    "the actors' client it runs a conversation's calls through",
		"actors/grain":      "a member's conversations run in grains",
		"actors/ledger":     "it reads tasks from the store, and the agent and task records it mirrors",
		"actors/routes":     "the routing table says which conversations run here",
		"actors/stop":       "the Stop's actor persists through etcd in a cluster, and the board says when etcd is away",
		"cluster/grains":    "a member joins the cluster's grains",
		"cluster/shared":    "a member's state in etcd",
		"config":            "it starts from the configuration's cluster settings",
		"egress":            "the owner's site answers it mirrors",
		"events":            "the bus whose events it relays and mirrors",
		"messages":          "the contract",
		"messages/handwire": "a hand's input, passed to the member that holds the page",
	})
}

// The member never reaches back into the daemon that starts it, nor into a
// surface or a mode: the daemon composes, the member joins.
func TestMemberReachesNoSurfaceNorTheDaemon(t *testing.T) {
	deptest.Check(t, deptest.Module+"/cluster/member", map[string]string{
		deptest.Module + "/daemon":             "the daemon starts the member; the member is handed what it needs",
		deptest.Module + "/ui":                 "the surfaces call the member through ui.Actors, which the daemon hands them",
		deptest.Module + "/drivers/playwright": "a session and its browser never leave their member: the member runs calls through the actors",
		deptest.Module + "/drivers/native":     "a session and its browser never leave their member: the member runs calls through the actors",
		deptest.Module + "/drivers/extension":  "a session and its browser never leave their member: the member runs calls through the actors",
		"k8s.io":                               "the Kubernetes client stays behind -tags k8s, in cluster/grains' membership",
	})
}
