// Package daemon wires one running buddi; it holds no behaviour of its own
// beyond the order things start and stop in. Start builds, in order: the
// data directory's lock and the store (instance, actors/ledger), the actor
// system with the ledger at its root, the owner token and settings.json
// (instance, settings), the listening address, the desktop lock and the
// extension connection (actors/desktop, actors/extconn), the modes this
// install offers (each built in its driver: drivers/playwright,
// drivers/extension, drivers/native, and drivers/sim when asked for — the
// one place production code chooses the simulated driver) under the
// settings' mode root, the egress rules and guard (egress.Live), the
// owner's settings with air-gap (settings), the cluster's etcd with
// --cluster, the controller and the actors' client (actors/gateway), the
// desktop lock's following of the Stop, the cluster's watches and grains,
// the metrics, and the surfaces (ui, and ui/telegram when a token is
// configured). buddi serve, the end-to-end tests and the load test all
// start it the same way.
//
// wiring.go and modes.go are those steps, each handing the next the narrow
// functions and handles it needs; daemon.go keeps of them only what
// Shutdown closes. A member of a cluster (--cluster) is cluster/member: the
// daemon opens it (member.Open, nil on one host), hands it the parts it
// calls (member.Parts) once the controller runs, gives the surfaces its
// Actors, and closes it; it holds none of the cluster's behaviour.
//
// Concurrency: Start builds everything in order and undoes what it built if
// a later step fails. Shutdown runs in reverse dependency order — surfaces
// (the Telegram bot, then HTTP), the cluster, the extension connection, the
// controller (which stops the sessions and closes the browsers), egress,
// the desktop lock, then the ledger and the store — and returns when ctx
// ends even if something has not stopped yet (it goes on in the
// background, and the store is then left open under its ledger).
package daemon
