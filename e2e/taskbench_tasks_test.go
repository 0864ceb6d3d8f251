package e2e_test

import (
	"fmt"
	"regexp"
	"strings"
)

// The tasks of the task benchmark, on real documentation
// (browsertest.Docs): the Go specification (/ref/spec), The Rust
// Programming Language (/book/) and Python's documentation (/py/).

// Kinds of task.
const (
	kindLink   = "link"   // follow links by their names, in order, and land on want
	kindAnswer = "answer" // read the page until an answer holds the line answer matches
	kindSearch = "search" // type words into the site's search box, submit, follow a result
)

// task is one thing an agent is asked to do, starting on start.
type task struct {
	name, kind, start string
	// links are the names of the links to follow, in order (link, search:
	// the result to follow).
	links []string
	// words are what the agent searches the page for (answer) or types into
	// the field named field (search).
	words, field string
	// answer is what one answer must hold (answer): a table row's cells,
	// or the words of the sentence that holds the answer, in order, each
	// close after the one before (see answerOf).
	answer *regexp.Regexp
	// want is where the task ends (link, search).
	want string
}

var tasks = []task{
	// Follow one link, on screen or anywhere on the page.
	{name: "book next chapter", kind: kindLink, start: "/book/ch04-01-what-is-ownership.html",
		links: []string{"Next chapter"}, want: "/book/ch04-02-references-and-borrowing.html"},
	{name: "book toc, on screen", kind: kindLink, start: "/book/ch04-01-what-is-ownership.html",
		links: []string{"Method Syntax"}, want: "/book/ch05-03-method-syntax.html"},
	{name: "book toc, scrolled away", kind: kindLink, start: "/book/ch04-01-what-is-ownership.html",
		links: []string{"Final Project: Building a Multithreaded Web Server"}, want: "/book/ch20-00-final-project-a-web-server.html"},
	{name: "spec section link", kind: kindLink, start: "/ref/spec", links: []string{"method expression"}, want: "/ref/spec#Method_expressions"},
	{name: "spec late link", kind: kindLink, start: "/ref/spec", links: []string{"imaginary suffix"}, want: "/ref/spec#Imaginary_literals"},
	{name: "python next module", kind: kindLink, start: "/py/library/os.html", links: []string{"os.path"}, want: "/py/library/os.path.html"},
	{name: "python deep method", kind: kindLink, start: "/py/library/os.html", links: []string{"scandir()"}, want: "/py/library/os.html#os.scandir"},
	{name: "python index entry", kind: kindLink, start: "/py/library/index.html", links: []string{"Built-in Functions"}, want: "/py/library/functions.html"},
	{name: "python small page", kind: kindLink, start: "/py/about.html",
		links: []string{"Contributors to the Python Documentation"}, want: "/py/about.html#contributors-to-the-python-documentation"},

	// Three levels of tables of contents.
	{name: "3-deep: library to urllib.parse", kind: kindLink, start: "/py/index.html",
		links: []string{"Library Reference", "Internet Protocols and Support", "urllib.parse — Parse URLs into components"},
		want:  "/py/library/urllib.parse.html"},
	{name: "3-deep: tutorial to match", kind: kindLink, start: "/py/index.html",
		links: []string{"Tutorial", "4. More Control Flow Tools", "4.6. match Statements"},
		want:  "/py/tutorial/controlflow.html#match-statements"},

	// Tables: the answer is a row, with the cells in their columns.
	{name: "table: long, far down", kind: kindAnswer, start: "/py/library/codecs.html",
		words: "cp1252", answer: answerOf(`cp1252`, `windows-1252`, `Western Europe`)},
	{name: "table: format code", kind: kindAnswer, start: "/py/library/datetime.html",
		words: "%j", answer: answerOf(`%j`, `Day of the year as a zero-padded decimal number`)},
	{name: "table: struct sizes", kind: kindAnswer, start: "/py/library/struct.html",
		words: "long long", answer: answerOf(`\bq\b`, `long long`, `integer`, `\b8\b`)},

	// Answers in body text far down long pages.
	{name: "text: 90% down stdtypes", kind: kindAnswer, start: "/py/library/stdtypes.html",
		words: "default limit", answer: answerOf(`default limit is 4300 digits`)},
	{name: "text: 87% down subprocess", kind: kindAnswer, start: "/py/library/subprocess.html",
		words: "vfork", answer: answerOf(`defaults to using the`, `vfork\(\)`, `system call`)},

	// The site's own search form.
	{name: "search form", kind: kindSearch, start: "/py/library/os.html", field: "Quick search", words: "scandir",
		links: []string{"os.scandir"}, want: "/py/library/os.html#os.scandir"},
}

// answerGap is how far apart the parts of an answer may be: a row's cells
// on lines of their own (as the peers write them) stay within it, the rows
// around it do not.
const answerGap = 200

// answerOf is a test for parts (regular expressions) in order, each at
// most answerGap characters after the one before. The words of a part may
// be apart too, a little: a peer writes "long long" as two lines when the
// page holds each word in an element of its own.
func answerOf(parts ...string) *regexp.Regexp {
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(p, " ", `[\s\S]{1,40}?`)
	}
	return regexp.MustCompile(strings.Join(parts, fmt.Sprintf(`[\s\S]{0,%d}?`, answerGap)))
}

// startPages are the pages the tasks start on, once each, in order.
func startPages() []string {
	seen := map[string]bool{}
	var out []string
	for _, tk := range tasks {
		if !seen[tk.start] {
			seen[tk.start] = true
			out = append(out, tk.start)
		}
	}
	return out
}
