// Package playwright drives a real Chromium through playwright-go: one
// persistent browser profile shared by every conversation, each conversation
// owning its own tabs.
//
// A Driver starts its browser, from <DataDir>/browser/profile, in the
// background (start.go): when told to (Start: buddi serve does as it
// starts), or when an act needs it and none runs. An act waits for it with
// Ready before its own deadline begins, and one that may wait no longer
// is told when to try again (browser_starting). A launch's bounds scale
// with the machine's load (load.go). A browser that dies, or stops
// answering, is started again by itself, and every conversation keeps its
// Tabs: their tabs are reopened in the new browser at the addresses they
// had, with their ids, and each conversation's next call is told, once,
// that the browser restarted (restart.go).
//
// One page cannot take the shared browser from the others. Every frame
// runs the page guard (pageguard.js) before its own scripts: it caps, in
// the page, the console calls and dialogs that would otherwise cross the
// one DevTools connection and the one Playwright driver every
// conversation shares. A watchdog per browser (watchdog.go) asks every
// page a question each second and cuts off a page that leaves it
// unanswered (a spinning renderer, a dialog loop, a document lost in its
// own growth), that crashed (its JavaScript heap is bounded by heapMB),
// whose document passes a million elements, that floods its console past
// the guard, or that navigates itself without end: the page is closed,
// its conversation keeps a blank tab, and is told on its next call
// (page_unresponsive). Titles are cut in the page; screenshots are of the
// viewport.
//
// Every document request (navigations, each redirect hop, frames, and a
// popup's first request) passes Config.CheckURL before it is sent, through
// one browser-level DevTools session that pauses them all; a refused popup
// is closed. Service workers are blocked.
//
// Reads are one call into the page. The driver registers a selector engine
// (drivers/walker, JavaScript run as a content script in Playwright's isolated
// world, where the page's scripts can neither see nor patch it) that walks
// the document and answers with the tree text and every shown ref's
// fingerprint at once. A default observation walks only what is on screen:
// subtrees outside the viewport, or outside the visible box of a container
// that clips (a scrolled sidebar), are not entered, and long sibling lists
// are entered by bisection where the viewport is, so its cost follows the
// screen and not the page's length. Fixed and sticky parts are always read;
// elements on screen that a person cannot see (covered, invisible,
// transparent, zero-sized) are named and marked hidden. When the budget is
// tight, fixed controls come first, then the main content, other content,
// chrome (navigation, banners, sidebars), and hidden elements; what is left
// out is counted with a ref to read it. After the visible part comes an
// outline of the rest: landmarks and headings above and below, each with
// its counts of links, fields and buttons and a ref (the counts are kept per
// document until the DOM changes). A full-page or region read (within a
// landmark, a heading's section, any element) walks everything from a start
// in document order and ends, when it does not fit, with an explicit
// continuation. A find searches the whole document without rendering it.
// Iframes on screen are read in their own frames.
//
// Text goes only into fields the driver can see. Before a key that types
// text, the focus is followed through frames and open shadow roots to the
// element it lands in, which must pass CheckField; focus that may sit in a
// closed shadow root is refused, not typed into blind. A fill is one engine
// call that focuses the field, checks it is still the focused field with
// the attributes CheckField passed (a page may turn a field into a password
// field on focus), and only then inserts the text. Reads mask the value of
// every field the credential rules (Config.FieldRules) classify and every
// value that looks like a key; screenshots cover the same fields.
//
// Refs are e<n>: the engine keeps each element's ref for the life of its
// document, and the driver hands it the next number the conversation has
// not used, so a number never names two elements. Every shown ref carries a
// fingerprint: tag, role, accessible name, id, name, type, href, form action
// and method, and the page URL. Before any input the driver reads the
// element again (one engine call) and refuses with stale_ref when anything
// differs or it is no longer rendered, dispatching nothing.
//
// As root, the driver and Chromium run as an unprivileged account (created
// on first use) with Chromium's sandbox on: buddi re-executes itself in
// node's place, and that stand-in takes the account, its own view of the
// file system where the account cannot reach what it needs, and the
// network namespace the caller gave (Config.NetNS), before it executes
// node (reexec.go). The profile, and all the browser writes, is the
// account's. Before every launch the profile's preferences are written:
// they, not the command-line switches, keep WebRTC off UDP.
//
// Concurrency: a Driver and its Tabs are safe for concurrent use. The
// Driver's mutex owns the launch state (the browser, the launch under way,
// where it is) and the conversation registry; no launch holds it: a launch
// runs on a goroutine of its own and takes it only to publish its browser.
// Each Tabs owns, under its own mutex, its tab list, the browser they are
// in, the note its next call is told and what its calls wait for, and
// runs one Observe or Do (or the reopening of its tabs after a restart) at
// a time. The watchdog is a goroutine per browser; it asks its questions
// on goroutines of their own, and cuts a page off without blocking (the
// page is closed on a goroutine of its own), so Playwright's dispatch
// goroutine may cut one off too.
// Interrupt takes no such turn: it cancels the running call (which returns
// code interrupted at once, while the abandoned Playwright call finishes in
// the background against its own timeout) and stops pending loads through
// the DevTools protocol. Playwright delivers events on its dispatch goroutine;
// the handlers here only record state and never call back into Playwright
// there (closing a blocked popup happens on a goroutine of its own).
// Lock order: Driver.mu, then Tabs.mu, then a tab's mutex or navState's;
// the watchdog's counters and pingers take no other lock.
// Starting node takes envMu, process-wide, for the moment
// PLAYWRIGHT_NODEJS_PATH (and the stand-in's plan) are set in the
// environment; launches of different Drivers take turns there.
// The Playwright mode (mode.go, profiles.go) holds the drivers: one for the
// shared profile and one per agent when agents are kept apart, each made
// in Mode.driverFor from the daemon's narrow functions (ModeConfig: the
// browser's configuration as the settings make it now, and the egress
// guard it runs behind). A driver's browser starts in one place,
// Driver.launch (start.go, then launch in browser.go), on a goroutine of
// its own: Mode.Warm starts the shared profile's as buddi starts.
//
// Stopping: Driver.Close marks the driver closed, abandons a launch under
// way (waiting for it at most closeWait; a launch that finds the driver
// closed closes what it started), closes the browser context, stops the
// Playwright driver process and kills whatever is left of the browser's
// process group; the browser's watchdog ends as its close begins. A
// browser that died is closed the same way by the launch that replaces
// it, before that launch starts anything (the two share the profile).
package playwright
