package e2e_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// tsDir holds the pinned official MCP TypeScript SDK client and driver.mjs,
// which lets a test drive it line by line.
const tsDir = "testdata/mcpclient"

// tsClient is the official TypeScript SDK client in a Node.js process.
type tsClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan []byte
}

// tsAnswer is one line driver.mjs prints.
type tsAnswer struct {
	Connected    json.RawMessage `json:"connected"`
	Instructions string          `json:"instructions"`
	Tools        []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tools"`
	Result *tsResult `json:"result"`
	Error  string    `json:"error"`
}

type tsResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`
		MIMEType string `json:"mimeType"`
	} `json:"content"`
}

// text is the result's first text content.
func (r *tsResult) text() string {
	for _, c := range r.Content {
		if c.Type == "text" {
			return c.Text
		}
	}
	return ""
}

// needTSClient fails the test, saying what to do, unless Node.js and the
// pinned client are installed (scripts/setup.sh, run by `make test`).
func needTSClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not on PATH: the MCP compatibility tests run the official TypeScript SDK client on Node.js 18 or later; install Node.js and run `make test`.")
	}
	if _, err := os.Stat(filepath.Join(tsDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatal("the MCP TypeScript SDK client is not installed in e2e/testdata/mcpclient; run scripts/setup.sh (`make test` does), which runs npm ci there.")
	}
	return node
}

// startTS connects the TypeScript client (args are driver.mjs's) with env
// added, and waits until it is connected.
func startTS(t *testing.T, env []string, args ...string) (*tsClient, tsAnswer) {
	t.Helper()
	node := needTSClient(t)
	c := &tsClient{t: t, lines: make(chan []byte, 1)}
	c.cmd = exec.Command(node, append([]string{"driver.mjs"}, args...)...)
	c.cmd.Dir = tsDir
	c.cmd.Env = append(os.Environ(), env...)
	c.cmd.Stderr = os.Stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			c.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	t.Cleanup(c.close)
	hello := c.read()
	if hello.Error != "" || hello.Connected == nil {
		t.Fatalf("the TypeScript client did not connect: %s", hello.Error)
	}
	return c, hello
}

func (c *tsClient) read() tsAnswer {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the TypeScript client exited")
		}
		var a tsAnswer
		if err := json.Unmarshal(line, &a); err != nil {
			c.t.Fatalf("the TypeScript client said %q: %v", line, err)
		}
		return a
	case <-time.After(2 * time.Minute):
		c.t.Fatal("the TypeScript client did not answer within 2 minutes")
	}
	return tsAnswer{}
}

func (c *tsClient) send(req map[string]any) tsAnswer {
	c.t.Helper()
	b, _ := json.Marshal(req)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Fatal(err)
	}
	return c.read()
}

// call calls a tool and fails the test on a protocol error.
func (c *tsClient) call(name string, args map[string]any) *tsResult {
	c.t.Helper()
	a := c.send(map[string]any{"op": "call", "name": name, "arguments": args})
	if a.Error != "" || a.Result == nil {
		c.t.Fatalf("%s %v: %s", name, args, a.Error)
	}
	return a.Result
}

// close ends stdin, so the client disconnects and exits; it is killed if
// it has not within the deadline.
func (c *tsClient) close() {
	_ = c.in.Close()
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
}
