package linux

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// entry is an installed application as its desktop entry describes it
// (the freedesktop.org Desktop Entry Specification).
type entry struct {
	ID             string // the desktop file id: org.gnome.Calculator
	Name           string
	Exec           string
	TryExec        string
	StartupWMClass string
	NoDisplay      bool
	Hidden         bool
	Path           string // the .desktop file
}

// Bounds on reading desktop entries.
const (
	maxEntries    = 5000
	maxEntryBytes = 64 << 10
	maxEntryDepth = 4
)

// dataDirs are the XDG data directories, most important first.
func dataDirs(getenv func(string) string) []string {
	home := getenv("XDG_DATA_HOME")
	if home == "" && getenv("HOME") != "" {
		home = filepath.Join(getenv("HOME"), ".local", "share")
	}
	dirs := getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	var out []string
	if home != "" {
		out = append(out, home)
	}
	for _, d := range strings.Split(dirs, ":") {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// scanApps reads the application entries of dirs. An id found in an
// earlier directory hides the same id in later ones; entries that are not
// applications, are hidden, or whose TryExec is missing are left out. It
// starts nothing.
func scanApps(ctx context.Context, dirs []string) ([]entry, error) {
	s := &appScan{ctx: ctx, seen: map[string]bool{}}
	for _, dir := range dirs {
		s.root = filepath.Join(dir, "applications")
		if err := filepath.WalkDir(s.root, s.visit); err != nil {
			return nil, err
		}
	}
	return s.out, nil
}

// appScan is one scanApps under way.
type appScan struct {
	ctx  context.Context
	root string
	seen map[string]bool
	out  []entry
}

// visit reads one file of the walk of s.root.
func (s *appScan) visit(path string, d fs.DirEntry, err error) error {
	if err != nil {
		return nil // an unreadable directory hides nothing else
	}
	if s.ctx.Err() != nil {
		return s.ctx.Err()
	}
	rel, _ := filepath.Rel(s.root, path)
	if d.IsDir() {
		if strings.Count(rel, string(filepath.Separator)) >= maxEntryDepth {
			return filepath.SkipDir
		}
		return nil
	}
	if !strings.HasSuffix(path, ".desktop") || len(s.seen) >= maxEntries {
		return nil
	}
	id := strings.ReplaceAll(strings.TrimSuffix(rel, ".desktop"), string(filepath.Separator), "-")
	if s.seen[id] {
		return nil
	}
	s.seen[id] = true
	if e, ok := readEntry(path, id); ok {
		s.out = append(s.out, e)
	}
	return nil
}

func readEntry(path, id string) (entry, bool) {
	f, err := os.Open(path)
	if err != nil {
		return entry{}, false
	}
	defer f.Close()
	data := make([]byte, maxEntryBytes)
	n, _ := f.Read(data)
	e, ok := parseEntry(data[:n])
	if !ok || e.Hidden || (e.TryExec != "" && !runnable(e.TryExec)) {
		return entry{}, false
	}
	e.ID, e.Path = id, path
	return e, true
}

// parseEntry reads the [Desktop Entry] group of an application entry.
func parseEntry(data []byte) (entry, bool) {
	var e entry
	in, typ := false, ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#':
			continue
		case line[0] == '[':
			in = line == "[Desktop Entry]"
			continue
		case !in:
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if k = strings.TrimSpace(k); k == "Type" {
			typ = strings.TrimSpace(v)
			continue
		}
		e.set(k, strings.TrimSpace(v))
	}
	return e, typ == "Application" && e.Name != "" && e.Exec != ""
}

// set takes one key of the [Desktop Entry] group.
func (e *entry) set(k, v string) {
	switch k {
	case "Name":
		e.Name = unescape(v)
	case "Exec":
		e.Exec = v
	case "TryExec":
		e.TryExec = unescape(v)
	case "StartupWMClass":
		e.StartupWMClass = unescape(v)
	case "NoDisplay":
		e.NoDisplay = v == "true"
	case "Hidden":
		e.Hidden = v == "true"
	}
}

// unescape undoes the escapes of a desktop entry's string values.
func unescape(s string) string {
	r := strings.NewReplacer(`\s`, " ", `\n`, "\n", `\t`, "\t", `\r`, "\r", `\\`, `\`)
	return r.Replace(s)
}

func runnable(prog string) bool {
	_, err := exec.LookPath(prog)
	return err == nil
}
