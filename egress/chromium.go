package egress

// ChromiumFlags are the command-line switches that confine Chromium to the
// guard at proxyAddr (Guard.Addr: "127.0.0.1:port"). Service workers are not
// a flag: the driver blocks them through its browser context options, since
// a worker keeps running and fetching after the page the owner saw is gone.
func ChromiumFlags(proxyAddr string) []string {
	return []string{
		// Every request goes through the guard. socks5:// makes Chromium send
		// host names to the proxy, so the guard resolves and checks them.
		"--proxy-server=socks5://" + proxyAddr,
		// Chromium sends localhost and loopback addresses direct, around any
		// proxy; this removes that implicit bypass so they meet the guard too.
		"--proxy-bypass-list=<-loopback>",
		// Nothing is resolved inside the browser: with a SOCKS5 proxy it has
		// no need to, and a local lookup would leak names and feed prefetch.
		// The proxy itself is an IP literal, which is never looked up.
		"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
		// QUIC (HTTP/3, WebTransport) is UDP, which a SOCKS CONNECT cannot
		// carry; without this Chromium would try it beside the proxy.
		"--disable-quic",
		// WebRTC may use only the proxy: no UDP that bypasses it, and no
		// local interface addresses handed to pages.
		"--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
		"--enforce-webrtc-ip-permission-check",
		// No update checks, field trials, or other traffic of the browser's
		// own: everything leaving it is on behalf of a page the owner sees.
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--no-pings",
	}
}
