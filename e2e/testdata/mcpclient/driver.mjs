// driver.mjs lets a Go test drive the official MCP TypeScript SDK client.
//
//   node driver.mjs stdio COMMAND [ARG...]   start COMMAND as an MCP server on stdio
//   node driver.mjs http URL                 connect to URL over streamable HTTP
//
// BUDDI_AGENT_TOKEN is given to the stdio server, or sent as the bearer over
// HTTP; BUDDI_CONVERSATION, when set, is sent as the Buddi-Conversation
// header. Once connected it prints {"connected":{...}} and then answers each
// request line on stdin with one line on stdout:
//   {"op":"list"}                              -> {"tools":[...]}
//   {"op":"call","name":N,"arguments":{...}}   -> {"result":{...}} or {"error":"..."}
// It disconnects and exits when stdin ends.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, ...rest] = process.argv.slice(2);
const token = process.env.BUDDI_AGENT_TOKEN ?? "";

function transport() {
  if (mode === "stdio") {
    return new StdioClientTransport({
      command: target,
      args: rest,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", BUDDI_AGENT_TOKEN: token },
      stderr: "inherit",
    });
  }
  if (mode === "http") {
    const headers = { Authorization: `Bearer ${token}` };
    if (process.env.BUDDI_CONVERSATION) headers["Buddi-Conversation"] = process.env.BUDDI_CONVERSATION;
    return new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } });
  }
  throw new Error(`unknown mode ${mode}; use stdio or http`);
}

const out = (v) => process.stdout.write(JSON.stringify(v) + "\n");

const client = new Client({ name: "buddi-e2e-ts", version: "1.0.0" });
try {
  await client.connect(transport());
} catch (err) {
  out({ error: `connect: ${err.message}` });
  process.exit(1);
}
out({ connected: client.getServerVersion() ?? {}, instructions: client.getInstructions() ?? "" });

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  try {
    if (req.op === "list") {
      out({ tools: (await client.listTools()).tools });
    } else if (req.op === "call") {
      out({ result: await client.callTool({ name: req.name, arguments: req.arguments ?? {} }) });
    } else {
      out({ error: `unknown op ${req.op}` });
    }
  } catch (err) {
    out({ error: err.message });
  }
}
await client.close();
