package loadtest

import (
	"context"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/config"
)

// pageServer serves the pages a real browser visits during a playwright
// run: link pages /p/N, form pages /form/N and /done, on 127.0.0.1. The
// agents' browser may reach loopback only through the owner's preview
// origins, so the daemon is started with this origin added to them.
type pageServer struct {
	srv    *http.Server
	origin string
	pages  int
}

func startPages() (*pageServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("loadtest: serving test pages: %w", err)
	}
	ps := &pageServer{origin: "http://" + ln.Addr().String(), pages: 10}
	ps.srv = &http.Server{Handler: http.HandlerFunc(ps.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = ps.srv.Serve(ln) }()
	return ps, nil
}

func (ps *pageServer) site(pages int) site {
	ps.pages = pages
	return site{origin: ps.origin, pages: pages}
}

// allow adds the origin to the daemon's preview origins.
func (ps *pageServer) allow(c *config.Config) {
	c.Egress.PreviewOrigins = append(append([]string(nil), c.Egress.PreviewOrigins...), ps.origin)
}

func (ps *pageServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = ps.srv.Shutdown(ctx)
}

func (ps *pageServer) serve(w http.ResponseWriter, req *http.Request) {
	p := req.URL.Path
	var body string
	switch {
	case p == "/done":
		body = "<h1>Thank you</h1><p>The form was sent.</p>" + ps.links(0)
	case strings.HasPrefix(p, "/p/"):
		n, ok := ps.number(strings.TrimPrefix(p, "/p/"))
		if !ok {
			http.NotFound(w, req)
			return
		}
		body = fmt.Sprintf("<h1>Page %d</h1><p>Plain text about item %d.</p>", n, n) + ps.links(n)
	case strings.HasPrefix(p, "/form/"):
		n, ok := ps.number(strings.TrimPrefix(p, "/form/"))
		if !ok {
			http.NotFound(w, req)
			return
		}
		body = fmt.Sprintf(formHTML, n) + ps.links(n)
	default:
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body>%s</body></html>", html.EscapeString(p), body)
}

const formHTML = `<h1>Order form %d</h1><form action="/done" method="get">
<label>Name <input name="name" type="text"></label>
<label>Email <input name="email" type="text"></label>
<label>Country <select name="country"><option>Canada</option><option>Norway</option><option>France</option></select></label>
<label><input name="terms" type="checkbox"> I accept the terms</label>
<button type="submit">Send</button></form>`

func (ps *pageServer) links(n int) string {
	var b strings.Builder
	b.WriteString("<ul>")
	for i := 1; i <= 6; i++ {
		k := (n*7 + i*3) % ps.pages
		kind := "p"
		if i%3 == 0 {
			kind = "form"
		}
		fmt.Fprintf(&b, `<li><a href="/%s/%d">%s %d</a></li>`, kind, k, kind, k)
	}
	b.WriteString("</ul>")
	return b.String()
}

func (ps *pageServer) number(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0 && n < ps.pages && strconv.Itoa(n) == s
}
