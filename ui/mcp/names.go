package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
)

// The tools as MCP clients see them. The agent API's names carry a dot
// (browser.act), which many clients refuse: they accept only tool names
// matching ^[a-zA-Z0-9_-]{1,64}$.
const (
	ToolStatus = "browser_status"
	ToolAct    = "browser_act"
	ToolTask   = "browser_task"
)

// apiName maps an MCP tool name to the agent API's, and mcpName back.
var (
	apiName = map[string]string{ToolStatus: messages.ToolStatus, ToolAct: messages.ToolAct, ToolTask: messages.ToolTask}
	mcpName = map[string]string{messages.ToolStatus: ToolStatus, messages.ToolAct: ToolAct, messages.ToolTask: ToolTask}
)

// clientNames rewrites the agent API's tool names in buddi's own sentences
// (errors, the task answer) to the names an MCP client calls.
var clientNames = strings.NewReplacer(
	messages.ToolStatus, ToolStatus, messages.ToolAct, ToolAct, messages.ToolTask, ToolTask)

// misnamed answers a call to a tool by its agent API name with an error
// that names the MCP tool to call instead; other calls pass through.
func misnamed(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
			if right, ok := mcpName[call.Params.Name]; ok {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
					"there is no tool %q over MCP; call %s instead (MCP tool names use underscores)", call.Params.Name, right)}
			}
		}
		return next(ctx, method, req)
	}
}
