package secret

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/buddi-dev/buddi/messages"
)

// VaultFile is the owner's secrets' file in the data directory, owner-only
// (0600) like the other files the owner's secrets live in.
const VaultFile = "secrets.json"

// Bounds of one owner secret.
const (
	MaxNameChars   = 64
	MaxValueChars  = 4096
	MaxOrigins     = 16
	MaxVaultSecret = 256 // secrets one install keeps
)

// Owned is one of the owner's own secrets: the name agents know it by, the
// origins it may be typed into, and its value, which only the owner and the
// driver's one fill ever see.
type Owned struct {
	Name    string   `json:"name"`
	Origins []string `json:"origins"`
	Value   string   `json:"value"`
}

// Info is an owned secret without its value: what agents and lists show.
func (o Owned) Info() messages.SecretInfo {
	return messages.SecretInfo{Name: o.Name, Origins: slices.Clone(o.Origins)}
}

// For reports whether origin (scheme://host[:port]) is one the secret is for.
func (o Owned) For(origin string) bool { return slices.Contains(o.Origins, origin) }

// Vault is the owner's secrets in one owner-only file. Every read reads the
// file again, so `buddi secret` changes a running buddi without a restart;
// each write replaces the file whole (written beside it, then renamed), so a
// crash leaves the old file or the new one. Safe for concurrent use within
// one process.
type Vault struct {
	path string
	mu   sync.Mutex

	// values is Values as of the file it was read from, which every act
	// asks for: a stat of the file tells whether it is still that file (a
	// write renames a new file into place, so its inode changes). While
	// the vault watches its file (Watch), values read at generation vgen
	// hold until the watch or a write of this vault moves gen on, and no
	// act stats the file.
	vmu    sync.Mutex
	vfile  fileStamp
	values []string
	vgen   uint64
	gen    atomic.Uint64
	w      *watcher
	wmu    sync.Mutex // guards w
	watchd atomic.Bool
}

// fileStamp tells one version of a file from another.
type fileStamp struct {
	ino, size, mtime int64
	ok               bool
}

// stamp is the vault file's stamp now: a file that is not there has one
// of its own; one that cannot be read has none (not ok).
func (v *Vault) stamp() fileStamp {
	fi, err := os.Stat(v.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileStamp{ino: -1, ok: true}
	case err != nil:
		return fileStamp{}
	}
	return stampOf(fi)
}

func stampOf(fi fs.FileInfo) fileStamp {
	st := fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ok: true}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ino = int64(sys.Ino) //nolint:gosec // an inode number compared, never used as a size
	}
	return st
}

// NewVault is the vault in dataDir (which need not exist yet).
func NewVault(dataDir string) *Vault {
	return &Vault{path: filepath.Join(dataDir, VaultFile)}
}

type vaultFile struct {
	Version int     `json:"version"`
	Secrets []Owned `json:"secrets"`
}

// read is the file's secrets; none when there is no file.
func (v *Vault) read() ([]Owned, error) {
	b, err := os.ReadFile(v.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, messages.Errorf(messages.CodeStoreFailed, "The secrets file %s cannot be read (%v); check its owner and mode.", v.path, err)
	}
	var f vaultFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, messages.Errorf(messages.CodeStoreFailed, "The secrets file %s is not valid JSON; restore it from a backup or remove it and add the secrets again.", v.path)
	}
	return f.Secrets, nil
}

func (v *Vault) write(list []Owned) error {
	b, err := json.Marshal(vaultFile{Version: 1, Secrets: list})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(v.path), 0o700); err != nil {
		return messages.Errorf(messages.CodeStoreFailed, "The data directory cannot be made (%v); check its path and owner.", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(v.path), ".secrets-*")
	if err != nil {
		return messages.Errorf(messages.CodeStoreFailed, "The secrets file cannot be written (%v); check the data directory's owner.", err)
	}
	defer os.Remove(tmp.Name())
	err = errors.Join(tmp.Chmod(0o600), writeAll(tmp, b), tmp.Sync(), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), v.path)
		v.changed()
	}
	if err != nil {
		return messages.Errorf(messages.CodeStoreFailed, "The secrets file cannot be written (%v); check the disk and the data directory's owner.", err)
	}
	return nil
}

func writeAll(f *os.File, b []byte) error {
	_, err := f.Write(b)
	return err
}

// List is the owner's secrets without their values, in the order added.
func (v *Vault) List() ([]messages.SecretInfo, error) {
	list, err := v.read()
	out := make([]messages.SecretInfo, 0, len(list))
	for _, o := range list {
		out = append(out, o.Info())
	}
	return out, err
}

// Get is the secret named name, or a *messages.Error with
// CodeUnknownSecret.
func (v *Vault) Get(name string) (Owned, error) {
	list, err := v.read()
	if err != nil {
		return Owned{}, err
	}
	for _, o := range list {
		if o.Name == name {
			return o, nil
		}
	}
	return Owned{}, messages.Errorf(messages.CodeUnknownSecret, "The owner has no secret named %q; secret_list gives the names you may fill.", messages.Clip(name, MaxNameChars))
}

// Values are every secret's value, for masking and for the URL guard.
//
// They are read again only when the file changed since the last read; the
// slice returned is shared, and callers must not modify it.
func (v *Vault) Values() []string {
	gen := v.gen.Load()
	if v.watchd.Load() {
		v.vmu.Lock()
		if v.vfile.ok && v.vgen == gen {
			defer v.vmu.Unlock()
			return v.values
		}
		v.vmu.Unlock()
	}
	st := v.stamp()
	v.vmu.Lock()
	defer v.vmu.Unlock()
	if st.ok && st == v.vfile {
		v.vgen = gen
		return v.values
	}
	list, _ := v.read()
	out := make([]string, 0, len(list))
	for _, o := range list {
		out = append(out, o.Value)
	}
	// Kept only when the file did not change while it was read.
	if st.ok && v.stamp() == st {
		v.vfile, v.values, v.vgen = st, out, gen
	} else {
		v.vfile, v.values = fileStamp{}, nil
	}
	return out
}

// Watch has the vault learn of changes to its file from the system (inotify
// on Linux) instead of reading the file's state on every Values: another
// process's change is seen once the watch reports it, within moments; a
// write of this vault at once. Where the directory cannot be watched (it
// does not exist, or the system has no such watch) Watch returns the
// reason and the vault goes on reading the file's state. Close ends it.
func (v *Vault) Watch() error {
	v.wmu.Lock()
	defer v.wmu.Unlock()
	if v.w != nil {
		return nil
	}
	w, err := watch(v.path, v.changed, func() { v.watchd.Store(false); v.changed() })
	if err != nil {
		return err
	}
	v.w = w
	v.changed() // what was read before the watch began is read again
	v.watchd.Store(true)
	return nil
}

// Close ends the watch Watch began, if any, and waits for its goroutine.
// A nil vault has nothing to close.
func (v *Vault) Close() error {
	if v == nil {
		return nil
	}
	v.wmu.Lock()
	w := v.w
	v.w = nil
	v.wmu.Unlock()
	v.watchd.Store(false)
	if w == nil {
		return nil
	}
	return w.close()
}

// changed moves the vault's generation on: the values read before are read
// again.
func (v *Vault) changed() { v.gen.Add(1) }

// Add stores a secret, replacing one of the same name.
func (v *Vault) Add(o Owned) error {
	o, err := Checked(o)
	if err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	list, err := v.read()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(list, func(s Owned) bool { return s.Name == o.Name })
	switch {
	case i >= 0:
		list[i] = o
	case len(list) >= MaxVaultSecret:
		return messages.Errorf(messages.CodeBadInput, "buddi keeps at most %d secrets; remove one first.", MaxVaultSecret)
	default:
		list = append(list, o)
	}
	return v.write(list)
}

// Remove forgets the secret named name.
func (v *Vault) Remove(name string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	list, err := v.read()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(list, func(s Owned) bool { return s.Name == name })
	if i < 0 {
		return messages.Errorf(messages.CodeUnknownSecret, "There is no secret named %q; `buddi secret list` lists them.", messages.Clip(name, MaxNameChars))
	}
	return v.write(slices.Delete(list, i, i+1))
}

// Checked is o with its origins in canonical form, or a *messages.Error
// with CodeBadInput saying what to change.
func Checked(o Owned) (Owned, error) {
	o.Name = strings.TrimSpace(o.Name)
	switch {
	case o.Name == "" || len(o.Name) > MaxNameChars || strings.ContainsFunc(o.Name, badNameRune):
		return o, messages.Errorf(messages.CodeBadInput, "A secret's name is 1 to %d letters, digits, dots, dashes or underscores, such as github-password.", MaxNameChars)
	case o.Value == "" || len(o.Value) > MaxValueChars:
		return o, messages.Errorf(messages.CodeBadInput, "A secret's value is 1 to %d bytes; give it on standard input.", MaxValueChars)
	case len(o.Origins) == 0 || len(o.Origins) > MaxOrigins:
		return o, messages.Errorf(messages.CodeBadInput, "Give 1 to %d origins the secret is for, such as https://github.com.", MaxOrigins)
	}
	origins := make([]string, 0, len(o.Origins))
	for _, raw := range o.Origins {
		origin, err := Origin(raw)
		if err != nil {
			return o, err
		}
		if !slices.Contains(origins, origin) {
			origins = append(origins, origin)
		}
	}
	o.Origins = origins
	return o, nil
}

func badNameRune(r rune) bool {
	return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '.' && r != '-' && r != '_'
}

// Origin is raw's origin as a browser serialises it (scheme://host, with
// the port only when it is not the scheme's own), or a *messages.Error with
// CodeBadInput for what is not an http or https origin.
func Origin(raw string) (string, error) {
	trimmed := strings.TrimSpace(raw)
	u, err := url.Parse(trimmed)
	if err != nil || !originOnly(u) {
		return "", messages.Errorf(messages.CodeBadInput, "%q is not an origin; write it as https://example.com (a scheme and a host, a port if any, no path).", messages.Clip(raw, 80))
	}
	return messages.Origin(trimmed), nil
}

// originOnly reports whether u is an http or https origin and nothing more.
func originOnly(u *url.URL) bool {
	web := u.Scheme == "https" || u.Scheme == "http"
	return web && u.Hostname() != "" && u.User == nil && (u.Path == "" || u.Path == "/") && u.RawQuery == "" && u.Fragment == ""
}
