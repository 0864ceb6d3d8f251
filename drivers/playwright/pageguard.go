package playwright

import _ "embed"

// pageGuard is the script every frame of every page runs before its own
// (BrowserContext.AddInitScript, at launch): it caps what a page sends
// over the browser's one DevTools connection, in the page, where the cost
// starts (console calls and their size, dialogs). What gets around it
// (another frame's console, uncaught errors) the watchdog counts.
//
//go:embed pageguard.js
var pageGuard string
