// Package drivers defines what acts on a page: one small interface that the
// session actor drives, with an implementation per mode (playwright, sim, and
// later extension and native). A Mode is the install's one way of opening
// drivers (one per browser profile); optional capabilities (a screencast
// source, raw pointer and key input, origins a mode serves itself) are
// interfaces a driver's Tabs or a Mode may also implement, found with a type
// assertion (ScreencastOf, RawInputOf). What every driver must do is the
// contract suite in drivertest; which actions a driver performs is the
// action table in messages, and Kinds follows it.
//
// A Driver serves many conversations. Each conversation gets its own Tabs,
// which hold that conversation's tabs and nothing else: one conversation can
// neither list nor select another's tabs.
//
// Concurrency: a Driver and its Tabs are safe for concurrent use. The session
// actor calls Tabs methods off its mailbox (in a goroutine) and receives the
// outcome as a message; Interrupt may be called at any time, from any
// goroutine, while another call on the same Tabs is running.
package drivers
