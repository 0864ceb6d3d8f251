// Package instance is what a running buddi keeps in its data directory for
// the CLI and for a second buddi serve: the exclusive lock on the
// directory with serve.json (who serves, at which address), and the owner
// token, made once on the first start, its hash kept in the ledger and the
// token itself in an owner-only file the CLI reads.
package instance
