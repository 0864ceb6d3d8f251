// Package native is the "Use my apps" driver (mode "computer"): it acts on
// the owner's own apps through the fixed native helper, speaking
// native/protocol through a protocol.Client, one helper process per call.
//
// An observation is the focused window of the conversation's selected app:
// its accessibility tree with refs ax1, ax2, … and a screenshot of that
// window only. A click names a ref or a pixel of that screenshot; fill and
// press type through OS keyboard events. Every input carries the app, the
// window and the target it was observed with, and the helper checks them
// again before it sends anything: when focus moved the input is refused
// (the driver never brings a window back to the front itself). There are no
// tab ids and no DOM select; navigate opens an ordinary tab in the owner's
// browser app, and the URL rules apply to that explicit navigate only. open
// brings forward an app by id, only one the owner allowed.
//
// Concurrency: a Driver and its Tabs are safe for concurrent use. Each Tabs
// guards its selected app and latest observation with a mutex that is never
// held across a helper call; Interrupt cancels the contexts of the calls in
// flight, which kills their helper processes.
package native
