package apiclient_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/apiclient"
)

// counting is a listener that counts the connections it accepted and the
// reads on them that brought bytes.
type counting struct {
	net.Listener
	n, reads atomic.Int64
}

func (l *counting) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.n.Add(1)
	return &countingConn{Conn: c, reads: &l.reads}, nil
}

type countingConn struct {
	net.Conn
	reads *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.reads.Add(1)
	}
	return n, err
}

// Many callers at once over two pipelined connections: each gets the
// answer to its own request (the server echoes what it was sent, after a
// pause that differs per request), the server saw no more than two
// connections, and it read the requests in fewer reads than there were
// requests: requests were sent before the answers to those ahead of them
// came (a connection that waits for each answer brings one per read).
func TestPipelinedCallsEachGetTheirOwnAnswer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &counting{Listener: ln}
	srv := &fasthttp.Server{Handler: func(c *fasthttp.RequestCtx) {
		time.Sleep(time.Duration(len(c.PostBody())%3) * time.Millisecond)
		c.SetContentType("application/json")
		fmt.Fprintf(c, `{"ok":true,"result":{"echo":%s}}`, c.PostBody())
	}}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Shutdown() })

	cl, err := apiclient.New("http://"+ln.Addr().String(), apiclient.WithPipeline(2, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	const callers, calls = 100, 20
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for i := range callers {
		wg.Go(func() {
			for j := range calls {
				want := fmt.Sprintf("caller %d call %d", i, j)
				body := []byte(`"` + want + `"` + strings.Repeat(" ", j%3))
				var got struct {
					Result struct {
						Echo string `json:"echo"`
					} `json:"result"`
				}
				if _, err := cl.DoInto(context.Background(), "POST", "/echo", "t", body, &got); err != nil {
					errs <- err
					return
				}
				if got.Result.Echo != want {
					errs <- fmt.Errorf("sent %q, answered %q", want, got.Result.Echo)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := l.n.Load(); n < 1 || n > 2 {
		t.Fatalf("the server accepted %d connections for %d calls; want 1 or 2", n, callers*calls)
	}
	if r := l.reads.Load(); r >= callers*calls {
		t.Fatalf("the server read %d calls in %d reads: none came before the answer to the one ahead of it", callers*calls, r)
	}
}

// Every transport sends the path it is given, whole, after the daemon's
// base, and the body as it is: a path with a query, one longer than the
// fast transport joins on its stack, a JSON body given as bytes
// (DoJSONInto) or as a value (DoInto), and none.
func TestARequestGoesToItsPathWithItsBody(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &fasthttp.Server{Handler: func(c *fasthttp.RequestCtx) {
		fmt.Fprintf(c, `{"ok":true,"result":{"uri":%q,"method":%q,"body":%q}}`, c.RequestURI(), c.Method(), c.PostBody())
	}}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Shutdown() }()
	base := "http://" + ln.Addr().String()
	long := "/api/sessions/" + strings.Repeat("c", 300) + "/takeover"
	type seen struct {
		URI, Method, Body string
	}
	transports := map[string][]apiclient.Option{"net/http": nil, "fast": {apiclient.WithFast(2, 5*time.Second)}}
	for tname, opts := range transports {
		c, err := apiclient.New(base, opts...)
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name, method, path string
			send               func(method, path string, env any) error
			body               string
		}{
			{"bytes", "POST", "/api/tools/browser.act", func(m, p string, env any) error {
				_, err := c.DoJSONInto(context.Background(), m, p, "tok", []byte(`{"conversation":"c1"}`), env)
				return err
			}, `{"conversation":"c1"}`},
			{"a value", "POST", "/api/tasks?wait=1", func(m, p string, env any) error {
				_, err := c.DoInto(context.Background(), m, p, "tok", map[string]string{"task": "a<b"}, env)
				return err
			}, `{"task":"a<b"}`},
			{"no body, a long path", "GET", long, func(m, p string, env any) error {
				_, err := c.DoJSONInto(context.Background(), m, p, "tok", nil, env)
				return err
			}, ""},
		}
		for _, tc := range cases {
			t.Run(tname+"/"+tc.name, func(t *testing.T) {
				var env struct {
					OK     bool `json:"ok"`
					Result seen `json:"result"`
				}
				if err := tc.send(tc.method, tc.path, &env); err != nil {
					t.Fatal(err)
				}
				want := seen{URI: tc.path, Method: tc.method, Body: tc.body}
				if env.Result != want {
					t.Fatalf("the server saw %+v, want %+v", env.Result, want)
				}
			})
		}
	}
}
