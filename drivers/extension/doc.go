// Package extension is the driver of "Your browser": agents work in the
// owner's own Chrome, in background tabs grouped per conversation, through
// the paired buddi extension (extension/, its tabs.js is the other half of
// this driver). Every command goes over the extension connection (the
// Caller, which the daemon backs with actors/extconn) and runs in Chrome
// through chrome.debugger on the conversation's own tabs.
//
// Reads use the same page engine as the Playwright driver (drivers/walker),
// installed by the extension in an isolated world of each document, so the
// page's scripts can neither see nor patch it, and the tree, refs and
// fingerprints read the same. Input is the debugger's: mouse and key events
// at the element's checked position, and the engine's one-call fill.
//
// Frames are read and acted in as the Playwright driver does (frames.go):
// each frame in its own isolated world, the frames a read shows put under
// their iframes' lines, a find run in every frame, refs unique across
// frames and remembering the frame they were read in. The extension
// reaches a cross-site frame, which Chrome runs in a process of its own,
// through the child session Chrome gives for it, and pointer input for an
// element in such a frame goes to that frame in its own coordinates.
//
// The extension keeps the owner's rules whatever buddi sends: a tab dragged
// out of its group is the owner's (refused), and input into a tab the owner
// is looking at is refused. This driver adds the contract's: a ref belongs
// to the page it was read from (a redirect between observing and acting is
// refused as stale), every document it lands on passes CheckURL, and text
// goes only into fields CheckField lets through.
//
// A click or fill on a ref of the latest observation checks its element
// in the call that acts (quick.go): the document checks its address and
// the element (still rendered, fingerprinting as observed) and only then
// scrolls to it or fills it, and for a frame the extension first checks
// the tab's page address (evalat). A check that fails has done nothing,
// and the action goes the long way (resolve, one call to check, then the
// action), whose check says what changed. Other actions, and targets
// named by what they are, go the long way.
//
// A click or a key into the tab's top document tells whether it moved the
// page from the document itself: the engine's world counts the navigate
// and formdata events it sees, and input that left the count as it was
// answers same_page at once (element.go, stayed). Other input, and input
// that moved the page or went into a frame, waits navStart for a load to
// start, as the Playwright driver does for a key or a submit.
//
// A click or a key that opened a tab (a link to a new tab, window.open)
// answers with that tab, which joined the opener's group in Chrome: the
// extension lists the group's tabs just before the input's first event and
// again in the read that follows it (popup.go). The new tab becomes the
// conversation's active tab and is sent to the background of the owner's
// window (keep), where Chrome had put it in front.
package extension
