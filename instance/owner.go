package instance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/secret"
)

// OwnerTokenFile is where the plain owner token is written, once, 0600.
const OwnerTokenFile = "owner-token"

// EnsureOwner returns the owner token hash, creating the token on first
// start. created is true when a new token was written.
func EnsureOwner(sys *actor.ActorSystem, led *actor.PID, st *ledger.Store, dir string) (hash string, created bool, err error) {
	o, found, err := st.Owner()
	if err != nil {
		return "", false, err
	}
	if found {
		return o.TokenHash, false, nil
	}
	token := secret.New("bo_")
	path := filepath.Join(dir, OwnerTokenFile)
	if err := os.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
		return "", false, fmt.Errorf("instance: write %s: %w", path, err)
	}
	rec := ledger.Owner{TokenHash: secret.Hash(token), Created: time.Now()}
	err = ledger.Check(ledger.Request(sys.Root, led, &ledger.Write{Owner: true, Ops: []ledger.Op{
		ledger.Put(ledger.OwnerKey(), rec)}}, 10*time.Second).Result())
	if err != nil {
		return "", false, fmt.Errorf("instance: save the owner: %w", err)
	}
	return rec.TokenHash, true, nil
}

// ReadOwnerToken reads the owner token for CLI commands.
func ReadOwnerToken(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, OwnerTokenFile))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}
