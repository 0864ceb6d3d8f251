// Package helper is the half of a native computer-control helper that is the
// same on every platform: it reads one protocol.Request, checks it, does the
// call through a Platform, and writes one protocol.Response.
//
// What it decides itself, so that every platform decides it the same way:
// that the focused window belongs to the selected app and is the observed
// one (WindowFingerprint), that a target is still the observed element
// (ElementFingerprint) and a pixel click lands on unchanged pixels (the
// screenshot hash); which elements an observation keeps, how their text is
// cleaned and bounded, that secure fields are masked and never filled, and
// the refs they get (ax1, ax2, …); how a screenshot is encoded within
// protocol.MaxScreenshotBytes; which installed app an exact name picks, with
// the candidates listed when several match, within
// protocol.NameSearchTimeout; and which failures leave the input uncertain.
// A Platform only reads and acts: the window system, the accessibility API,
// the OS input events, the installed apps.
//
// Concurrency: Serve handles one request on the calling goroutine and
// returns; a Platform is used by one call at a time. The request's timeout
// bounds the whole call through its context.
package helper
