package tailnet

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// OwnersFile is the owner's list of logins, under the node's directory.
const OwnersFile = "owners.json"

// Owners is the owner's list of tailnet logins: a request from one of
// them is signed in without a link. Empty, the first login that signs in
// with a link from the host is added (confirmed once). The list is kept in
// a file of its own, owner-only; changes reach the watchers at once.
type Owners struct {
	path string

	mu       sync.Mutex
	logins   []string
	watchers []func(removed string)
}

type ownersFile struct {
	Version int      `json:"version"`
	Logins  []string `json:"logins"`
}

// OpenOwners reads the list in dir (none yet is an empty list).
func OpenOwners(dir string) (*Owners, error) {
	o := &Owners{path: filepath.Join(dir, OwnersFile)}
	b, err := os.ReadFile(o.path)
	if errors.Is(err, os.ErrNotExist) {
		return o, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tailnet: read %s: %w", o.path, err)
	}
	var f ownersFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("tailnet: %s is not a list of logins (%w); fix or remove it", o.path, err)
	}
	o.logins = f.Logins
	return o, nil
}

// List is the logins, in the order they were added.
func (o *Owners) List() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.logins)
}

// Allowed reports whether login is on the list.
func (o *Owners) Allowed(login string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Contains(o.logins, normal(login))
}

// Empty reports whether nobody is on the list yet.
func (o *Owners) Empty() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.logins) == 0
}

// Add puts login on the list.
func (o *Owners) Add(login string) error {
	login = normal(login)
	if login == "" || len(login) > 200 || strings.ContainsAny(login, " \t\r\n") {
		return fmt.Errorf("tailnet: %q is not a tailnet login; give it as Tailscale shows it, like you@example.com", login)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if slices.Contains(o.logins, login) {
		return nil
	}
	next := append(slices.Clone(o.logins), login)
	if err := o.write(next); err != nil {
		return err
	}
	o.logins = next
	return nil
}

// Remove takes login off the list; the watchers learn of it at once.
// Removing a login that is not there does nothing.
func (o *Owners) Remove(login string) error {
	login = normal(login)
	o.mu.Lock()
	i := slices.Index(o.logins, login)
	if i < 0 {
		o.mu.Unlock()
		return nil
	}
	next := slices.Delete(slices.Clone(o.logins), i, i+1)
	if err := o.write(next); err != nil {
		o.mu.Unlock()
		return err
	}
	o.logins = next
	watchers := slices.Clone(o.watchers)
	o.mu.Unlock()
	for _, w := range watchers {
		w(login)
	}
	return nil
}

// OnRemove calls f with each login removed from the list from now on.
func (o *Owners) OnRemove(f func(login string)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.watchers = append(o.watchers, f)
}

// write replaces the file: written aside, synced, then renamed.
func (o *Owners) write(logins []string) error {
	b, err := json.MarshalIndent(ownersFile{Version: 1, Logins: logins}, "", "  ")
	if err != nil {
		return err
	}
	tmp := o.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("tailnet: write the owner's list: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, o.path)
	}
	if err != nil {
		return fmt.Errorf("tailnet: write the owner's list: %w", err)
	}
	return nil
}

func normal(login string) string { return strings.ToLower(strings.TrimSpace(login)) }
