package macos

import (
	"context"
	"errors"

	"github.com/buddi-dev/buddi/native/protocol"
)

// Spotlight's metadata queries (CoreServices).
var (
	mdQueryCreate           func(alloc, query, valueAttrs, sortAttrs uintptr) uintptr
	mdQuerySetMaxCount      func(q uintptr, max int)
	mdQueryExecute          func(q uintptr, flags uintptr) bool
	mdQueryGetResultCount   func(q uintptr) int
	mdQueryGetResultAtIndex func(q uintptr, i int) uintptr
	mdItemCopyAttribute     func(item, name uintptr) uintptr
)

const mdQuerySynchronous = 1

func bindMD() error {
	b := open(coreServicesPath)
	b.fn(&mdQueryCreate, "MDQueryCreate")
	b.fn(&mdQuerySetMaxCount, "MDQuerySetMaxCount")
	b.fn(&mdQueryExecute, "MDQueryExecute")
	b.fn(&mdQueryGetResultCount, "MDQueryGetResultCount")
	b.fn(&mdQueryGetResultAtIndex, "MDQueryGetResultAtIndex")
	b.fn(&mdItemCopyAttribute, "MDItemCopyAttribute")
	return b.err
}

// searchApps asks Spotlight for installed applications named name, in any
// case. The query runs synchronously on its own goroutine; a context that
// ends first abandons it (the helper process exits soon after). Nothing is
// launched.
func searchApps(ctx context.Context, name string) ([]protocol.App, error) {
	done := make(chan []protocol.App, 1)
	fail := make(chan error, 1)
	go func() {
		q := newCFString(nameQuery(name))
		defer cfRelease(q)
		query := mdQueryCreate(0, q, 0, 0)
		if query == 0 {
			fail <- errors.New("Spotlight refused the query")
			return
		}
		defer cfRelease(query)
		mdQuerySetMaxCount(query, 4*protocol.MaxCandidates)
		if !mdQueryExecute(query, mdQuerySynchronous) {
			fail <- errors.New("the Spotlight query did not run")
			return
		}
		var apps []protocol.App
		for i := range min(mdQueryGetResultCount(query), 4*protocol.MaxCandidates) {
			item := mdQueryGetResultAtIndex(query, i)
			a := protocol.App{ID: itemString(item, "kMDItemCFBundleIdentifier"),
				Name: appName(itemString(item, "kMDItemDisplayName")), Path: itemString(item, "kMDItemPath")}
			if a.ID != "" {
				apps = append(apps, a)
			}
		}
		done <- apps
	}()
	select {
	case apps := <-done:
		return apps, nil
	case err := <-fail:
		return nil, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func itemString(item uintptr, attr string) string {
	v := mdItemCopyAttribute(item, cfstr(attr))
	if v == 0 {
		return ""
	}
	defer cfRelease(v)
	return goString(v)
}
