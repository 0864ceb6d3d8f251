package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// The scripted agent of the task benchmark: one policy per tool, the one
// its descriptions teach, run the same way for every tool.

// tool is what the agent can do with one browser tool over MCP. Texts are
// the tools' own answers; refs are whatever the tool calls an element.
type tool interface {
	name() string
	// open goes to url.
	open(ctx context.Context, s *session, url string) error
	// look is the tool's default reading of the page: buddi's observation,
	// a peer's whole-page snapshot.
	look(ctx context.Context, s *session) (string, error)
	// search is the tool's own search of the page for words; errNoSearch
	// when the policy does not use one.
	search(ctx context.Context, s *session, words string) (string, error)
	// readNear reads the part of the page around the first match of a
	// search's answer; errNoSearch when the tool has no such read.
	readNear(ctx context.Context, s *session, found string) (string, error)
	// readAll reads the whole page, part after part, until done says it
	// has what it needs.
	readAll(ctx context.Context, s *session, done func(string) bool) (string, error)
	// ref is the ref of a shown element with role and name in text, or "".
	ref(text, role, name string) string
	// click clicks ref and returns the page's URL after.
	click(ctx context.Context, s *session, ref, what string) (string, error)
	// submit types value into the field ref and submits its form.
	submit(ctx context.Context, s *session, ref, what, value string) error
	// wait waits for text to appear on the page and returns what the tool
	// answered (some tools answer with a snapshot).
	wait(ctx context.Context, s *session, text string) (string, error)
}

var errNoSearch = errors.New("no search in this policy")

// looksAfter is a tool that can read the page in the same call as an
// action that changes it (buddi's thenObserve): the agent says before an
// open or a click whether it will look at the page next.
type looksAfter interface{ lookNext(will bool) }

// willLook tells the tool whether the agent looks at the page after its
// next open or click: it does, in the observe-first policy, when it still
// has something to find there.
func (a *agent) willLook(more bool) {
	if la, ok := a.t.(looksAfter); ok {
		la.lookNext(more && !a.findFirst)
	}
}

// agent runs tasks with one tool under one policy.
type agent struct {
	t tool
	// findFirst searches before looking (when a tool's own search is what
	// is compared).
	findFirst bool
}

func (a *agent) run(ctx context.Context, s *session, base string, tk task) (bool, string) {
	a.willLook(true)
	if err := a.t.open(ctx, s, base+tk.start); err != nil {
		return false, err.Error()
	}
	switch tk.kind {
	case kindAnswer:
		return a.answer(ctx, s, tk)
	case kindSearch:
		return a.searchForm(ctx, s, base, tk)
	}
	url := ""
	for i, link := range tk.links {
		ref, err := a.reach(ctx, s, "link", link, "")
		if err != nil {
			return false, err.Error()
		}
		a.willLook(i < len(tk.links)-1)
		if url, err = a.t.click(ctx, s, ref, link+" link"); err != nil {
			return false, err.Error()
		}
	}
	return landed(url, base+tk.want)
}

// reach finds the ref of the element with role and name: in the tool's
// default reading first (or its search, findFirst), then in the other,
// then in a whole read. seen is an answer already read, if any.
func (a *agent) reach(ctx context.Context, s *session, role, name, seen string) (string, error) {
	if ref := a.t.ref(seen, role, name); ref != "" {
		return ref, nil
	}
	steps := []func() (string, error){
		func() (string, error) { return a.t.look(ctx, s) },
		func() (string, error) { return a.t.search(ctx, s, name) },
	}
	if a.findFirst {
		steps[0], steps[1] = steps[1], steps[0]
	}
	for _, step := range steps {
		text, err := step()
		if errors.Is(err, errNoSearch) {
			continue
		}
		if err != nil {
			return "", err
		}
		if ref := a.t.ref(text, role, name); ref != "" {
			return ref, nil
		}
	}
	var ref string
	_, err := a.t.readAll(ctx, s, func(text string) bool {
		ref = a.t.ref(text, role, name)
		return ref != ""
	})
	if err != nil && !errors.Is(err, errNoSearch) {
		return "", err
	}
	if ref == "" {
		return "", fmt.Errorf("no shown %s %q", role, name)
	}
	return ref, nil
}

// answer reads until one line of an answer holds the task's answer: the
// default reading, the tool's search, the part around its first match,
// then the whole page.
func (a *agent) answer(ctx context.Context, s *session, tk task) (bool, string) {
	holds := tk.answer.MatchString
	var found string
	steps := []func() (string, error){
		func() (string, error) { return a.t.look(ctx, s) },
		func() (string, error) {
			text, err := a.t.search(ctx, s, tk.words)
			found = text
			return text, err
		},
		func() (string, error) {
			if found == "" {
				return "", errNoSearch
			}
			return a.t.readNear(ctx, s, found)
		},
	}
	if a.findFirst {
		steps[0], steps[1], steps[2] = steps[1], steps[2], steps[0]
	}
	for _, step := range steps {
		text, err := step()
		if errors.Is(err, errNoSearch) {
			continue
		}
		if err != nil {
			return false, err.Error()
		}
		if holds(text) {
			return true, ""
		}
	}
	text, err := a.t.readAll(ctx, s, holds)
	if err != nil && !errors.Is(err, errNoSearch) {
		return false, err.Error()
	}
	if holds(text) {
		return true, ""
	}
	return false, "no answer holds " + tk.answer.String()
}

// searchForm types the words into the site's search box, submits, waits
// for the result and follows it.
func (a *agent) searchForm(ctx context.Context, s *session, base string, tk task) (bool, string) {
	field, err := a.reach(ctx, s, "textbox", tk.field, "")
	if err != nil {
		return false, err.Error()
	}
	if err := a.t.submit(ctx, s, field, tk.field+" field", tk.words); err != nil {
		return false, err.Error()
	}
	link := tk.links[0]
	seen, err := a.t.wait(ctx, s, link)
	if err != nil {
		return false, err.Error()
	}
	ref, err := a.reach(ctx, s, "link", link, seen)
	if err != nil {
		return false, err.Error()
	}
	a.willLook(false)
	url, err := a.t.click(ctx, s, ref, link+" link")
	if err != nil {
		return false, err.Error()
	}
	return landed(url, base+tk.want)
}

func landed(url, want string) (bool, string) {
	if strings.Contains(url, want) {
		return true, ""
	}
	return false, "landed on " + url
}

// byName finds a capture of format (with %s for a name) for the exact name,
// or else for a name that holds it, as an agent reading the text would.
func byName(text, format, name string) string {
	exact := regexp.MustCompile(strings.Replace(format, "%s", regexp.QuoteMeta(name), 1))
	if m := firstLine(exact, text); m != "" {
		return m
	}
	loose := regexp.MustCompile(strings.Replace(format, "%s", `[^"\n]*`+regexp.QuoteMeta(name)+`[^"\n]*`, 1))
	return firstLine(loose, text)
}
