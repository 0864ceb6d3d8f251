// Package sim is a simulated browser driver. It serves a generated,
// deterministic site at https://sim.localhost to unit tests of the session actors
// and to `buddi loadtest`, which runs thousands of conversations through the
// real HTTP API on a small machine.
//
// The site has link pages (/p/<n>), form pages (/form/<n>) and a page reached
// after any form is submitted (/done). Each page's accessibility tree has the
// text shape of Playwright's AI-mode aria snapshot, with [ref=eN] refs. Page
// templates are built on first use and shared, read-only, by every
// conversation (and by every profile of a Mode), so an idle conversation costs a few hundred bytes and an
// observation or a click takes microseconds. Nothing sleeps unless Config asks
// for latency; faults are drawn from a per-conversation PRNG seeded from
// Config.Seed and the conversation name, so a run can be replayed.
//
// Every input that reaches a page (click, fill, select, press, hover, scroll,
// submit) is counted, per conversation (Tabs.Inputs) and per driver
// (Driver.Stats), and reported to Config.OnInput, so a test can prove that no
// input was dispatched while a session was paused, taken over or stopped.
//
// Concurrency: a Driver and its Tabs are safe for concurrent use. The Driver's
// mutex guards the map of conversations; each Tabs has its own mutex guarding
// its tabs, history, form values, counts and PRNG, and never takes the
// Driver's mutex while holding it. No goroutine runs per conversation: calls
// run on the caller's goroutine and wait on timers only when latency is
// configured. Interrupt closes the Tabs' interrupt channel, so a waiting call
// returns at once with code interrupted and its pending navigation is
// dropped. Config.OnInput is called on the caller's goroutine with no lock
// held. Frames is the one exception to "no goroutines": it runs one goroutine
// per stream, which stops when its context ends or the Tabs close. Tabs.Close
// interrupts in-flight calls, then forgets the conversation; Driver.Close
// closes every Tabs.
package sim
