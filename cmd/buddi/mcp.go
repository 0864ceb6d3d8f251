package main

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/ui/mcp"
)

func init() {
	register(&command{name: "mcp", summary: "serve buddi's browser tools to an MCP client over stdio", run: mcpServe})
}

func mcpServe(e *env, args []string) int {
	f := newFlags(e, "mcp")
	token := f.String("agent-token", e.getenv("BUDDI_AGENT_TOKEN"), "the agent's token (env BUDDI_AGENT_TOKEN)")
	conv := f.String("conversation", "", "use this conversation for every call, so the owner can start its task first with `buddi task start --agent A --conversation NAME` (default: one per MCP session)")
	if code, ok := f.parse(args, 0); !ok {
		return code
	}
	if *token == "" {
		return usageFail(e, "mcp", "give the agent's token with --agent-token or BUDDI_AGENT_TOKEN; `buddi agent add NAME` makes one.")
	}
	addr, err := daemonAddr(f)
	if err != nil {
		return fail(e, "mcp", "%s", strings.TrimPrefix(err.Error(), "daemon: "))
	}
	if !config.Loopback(addr) {
		return usageFail(e, "mcp", "buddi mcp sends the agent's token only to a buddi on this machine, and "+addr+" is not a loopback address; run buddi mcp where buddi serves, or connect your MCP client to http://"+addr+"/mcp directly.")
	}
	cfg := mcp.Config{BaseURL: "http://" + addr, Token: *token, Conversation: *conv, Version: version}
	tuneGC(e, bridgeGC)
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	// The tool descriptions say what the install lets the browser open
	// (air-gap, the host list) from the moment they are registered.
	ask, cancelAsk := context.WithTimeout(ctx, 3*time.Second)
	cfg.Reach = mcp.AskReach(ask, cfg)
	cancelAsk()
	srv, err := mcp.New(cfg)
	if err != nil {
		return usageFail(e, "mcp", err.Error())
	}
	if err := srv.Run(ctx, &sdk.StdioTransport{}); err != nil && ctx.Err() == nil {
		return fail(e, "mcp", "%s", err)
	}
	return exitOK
}
