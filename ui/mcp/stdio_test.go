package mcp_test

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// TestStdio runs the server over byte streams, as `buddi mcp` does on stdio,
// and checks that Run returns once the client hangs up.
func TestStdio(t *testing.T) {
	d := newDaemon(t, okResult(t, map[string]any{"text": "Ready."}))
	s, err := buddimcp.New(config(d))
	if err != nil {
		t.Fatal(err)
	}
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ran := make(chan error, 1)
	go func() {
		ran <- s.Run(context.Background(), &mcp.IOTransport{Reader: toServer, Writer: fromServer})
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-agent", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, cs, buddimcp.ToolStatus, nil)
	if got := text(t, res); res.IsError || got != "Ready." {
		t.Errorf("IsError %v, text %q", res.IsError, got)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("client Close: %v", err)
	}
	if err := <-ran; err != nil {
		t.Errorf("Run after the client hung up: %v", err)
	}
	if got := d.received(); len(got) != 1 || !generated.MatchString(got[0].Conversation) {
		t.Errorf("daemon received %v", got)
	}
}
