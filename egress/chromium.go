package egress

// gaiaHost is where the browser's own Google sign-in calls (the account
// list it asks for at start-up, with the profile's google.com cookies) are
// sent instead of accounts.google.com: a reserved name on the bypass list,
// which the browser cannot resolve, so they end before any packet. Pages
// still reach accounts.google.com through the guard like any other site.
const gaiaHost = "gaia.buddi.invalid"

// ChromiumFlags are the command-line switches that confine Chromium to the
// guard at proxyAddr (Guard.Addr: "127.0.0.1:port"). Service workers are not
// a flag: the driver blocks them through its browser context options, since
// a worker keeps running and fetching after the page the owner saw is gone.
// Nor is WebRTC: the switches for it have no effect on the Chromium we run;
// the driver writes the profile preferences that do hold it, and as root
// the browser's own network namespace leaves it no route but the guard.
func ChromiumFlags(proxyAddr string) []string {
	return []string{
		// Every request goes through the guard. socks5:// makes Chromium send
		// host names to the proxy, so the guard resolves and checks them.
		"--proxy-server=socks5://" + proxyAddr,
		// Chromium sends localhost and loopback addresses direct, around any
		// proxy; <-loopback> removes that implicit bypass so they meet the
		// guard too. The hosts of the browser's own services, and where its
		// sign-in calls now go, are sent around the guard on purpose: there
		// the resolver below ends them, and the guard never sees them.
		"--proxy-bypass-list=<-loopback>;" + serviceBypass() + ";" + gaiaHost,
		"--gaia-url=https://" + gaiaHost,
		// Nothing is resolved inside the browser: with a SOCKS5 proxy it has
		// no need to, and a local lookup would leak names and feed prefetch.
		// The proxy itself is an IP literal, which is never looked up.
		"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
		// QUIC (HTTP/3, WebTransport) is UDP, which a SOCKS CONNECT cannot
		// carry; without this Chromium would try it beside the proxy.
		"--disable-quic",
		// No update checks, field trials, or other traffic of the browser's
		// own: everything leaving it is on behalf of a page the owner sees.
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--no-pings",
	}
}
