// Package playwright drives a real Chromium through playwright-go: one
// persistent browser profile shared by every conversation, each conversation
// owning its own tabs.
//
// A Driver launches the browser lazily on the first Open, from
// <DataDir>/browser/profile, and relaunches it on the next Open if it died.
// Every document request (navigations, each redirect hop, frames) passes
// Config.CheckURL before it is sent, through each tab's own DevTools session;
// a popup is checked when it appears and closed when refused. Service
// workers are blocked. Observations are
// viewport-first: the driver picks the few small subtrees that cover the
// viewport (and, budget permitting, the next screens) and takes Playwright's
// AI-mode aria snapshot of each, so a long page costs what its visible part
// costs. The whole page is one snapshot of the document, on request.
//
// Every ref in a tree gets a fingerprint read from the live element in
// Playwright's isolated (utility) world, where the page's scripts cannot see
// or patch anything: tag, role, accessible name, id, name, type, href, form
// action and method, and the page URL. Before any input the driver reads the
// element again, re-snapshots it (a changed role or name gets a new ref) and
// refuses with stale_ref when anything differs, dispatching nothing.
//
// Concurrency: a Driver and its Tabs are safe for concurrent use. The Driver's
// mutex owns the launch state and the conversation registry; each Tabs owns
// its tab list under its own mutex and runs one Observe or Do at a time.
// Interrupt takes no such turn: it cancels the running call (which returns
// code interrupted at once, while the abandoned Playwright call finishes in
// the background against its own timeout) and stops pending loads through
// the DevTools protocol. Playwright delivers events on its dispatch goroutine;
// the handlers here only record state and never call back into Playwright
// there (closing a blocked popup happens on a goroutine of its own).
// Lock order: Driver.mu, then Tabs.mu, then a tab's mutex or navState's.
// Stopping: Driver.Close marks the driver closed, closes the browser context,
// stops the Playwright driver process and kills whatever is left of the
// browser's process group.
package playwright
