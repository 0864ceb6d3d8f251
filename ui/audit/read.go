package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/buddi-dev/buddi/messages"
)

// Read returns the lines of the trail under dataDir that f picks, oldest
// first, at most f.Limit of the newest. A line cut short (one being
// written, or torn by a crash) is skipped.
func Read(dataDir string, f messages.AuditFilter) (messages.AuditList, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = messages.AuditDefaultLimit
	}
	limit = min(limit, messages.AuditMaxLimit)
	files, err := trail(filepath.Join(dataDir, Dir))
	if err != nil {
		return nil, err
	}
	ring := make(messages.AuditList, 0, min(limit, 1024))
	start := 0 // ring's oldest line once it is full
	for _, path := range files {
		err := scan(path, func(r *messages.AuditRecord) {
			if !f.Wants(r) {
				return
			}
			if len(ring) < limit {
				ring = append(ring, *r)
				return
			}
			ring[start] = *r
			start = (start + 1) % limit
		})
		if err != nil {
			return nil, err
		}
	}
	return append(ring[start:], ring[:start]...), nil
}

// trail lists the trail's files, oldest first: the rotated ones by
// falling number, then the current one.
func trail(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	type rotated struct {
		n    int
		path string
	}
	var old []rotated
	current := ""
	for _, e := range entries {
		name := e.Name()
		if name == File {
			current = filepath.Join(dir, name)
			continue
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(name, File+".")); err == nil && strings.HasPrefix(name, File+".") {
			old = append(old, rotated{n, filepath.Join(dir, name)})
		}
	}
	sort.Slice(old, func(a, b int) bool { return old[a].n > old[b].n })
	out := make([]string, 0, len(old)+1)
	for _, r := range old {
		out = append(out, r.path)
	}
	if current != "" {
		out = append(out, current)
	}
	return out, nil
}

func scan(path string, each func(*messages.AuditRecord)) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil // rotated away meanwhile
	}
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var r messages.AuditRecord
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			each(&r)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("audit: read %s: %w", filepath.Base(path), err)
	}
	return nil
}
