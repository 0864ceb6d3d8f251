package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/messages"
)

// A session is opened by a POST without a session id, normally an
// initialize. Its params stay with the session for as long as it lives, so
// they are rebuilt with only what buddi reads, cut short: the protocol
// version, the client's capabilities (when small) and the client's name,
// title and version.
const (
	openMax       = 64 << 10 // bytes of the request that opens a session
	clientInfoMax = 128      // bytes kept of each field of clientInfo
	capsMax       = 1 << 10  // bytes of capabilities kept; larger ones are dropped
)

// openRequest is the JSON-RPC request that opens a session.
type openRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params *struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      *struct {
			Name    string `json:"name"`
			Title   string `json:"title"`
			Version string `json:"version"`
		} `json:"clientInfo"`
	} `json:"params"`
}

// readOpen reads a POST without a session: its id, for an error answer,
// whether it is an initialize, and its body with an initialize's params
// cut to size. A body that is not a JSON-RPC request passes unchanged, for
// the SDK to refuse.
func readOpen(r *http.Request) (id json.RawMessage, body []byte, initialize bool, e *messages.Error) {
	if r.Body != nil {
		var err error
		body, err = io.ReadAll(io.LimitReader(r.Body, openMax+1))
		if err != nil {
			return nil, nil, false, messages.Errorf(messages.CodeBadRequest, "The request could not be read; send it again.")
		}
	}
	if len(body) > openMax {
		return nil, nil, false, messages.Errorf(messages.CodeBadRequest,
			"A request that opens an MCP session may be at most %d KB; send initialize with the usual small params.", openMax>>10)
	}
	var m openRequest
	if json.Unmarshal(body, &m) != nil {
		return nil, body, false, nil
	}
	if !plainID(m.ID) {
		m.ID = nil
	}
	if m.Method != "initialize" {
		return m.ID, body, false, nil
	}
	if m.Params == nil {
		return m.ID, body, true, nil
	}
	return m.ID, cutInitialize(&m), true, nil
}

// cutInitialize writes m again with only what buddi keeps of it.
func cutInitialize(m *openRequest) []byte {
	type info struct {
		Name    string `json:"name"`
		Title   string `json:"title,omitempty"`
		Version string `json:"version"`
	}
	type params struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      *info           `json:"clientInfo,omitempty"`
	}
	p := params{ProtocolVersion: cut(m.Params.ProtocolVersion, 32), Capabilities: json.RawMessage(`{}`)}
	if c := bytes.TrimSpace(m.Params.Capabilities); len(c) > 0 && len(c) <= capsMax && c[0] == '{' {
		p.Capabilities = c
	}
	if ci := m.Params.ClientInfo; ci != nil {
		p.ClientInfo = &info{Name: cut(ci.Name, clientInfoMax), Title: cut(ci.Title, clientInfoMax), Version: cut(ci.Version, clientInfoMax)}
	}
	id := m.ID
	if len(id) == 0 {
		id = json.RawMessage(`null`)
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  params          `json:"params"`
	}{"2.0", id, m.Method, p})
	if err != nil { // the parts were read from JSON and are JSON again
		return nil
	}
	return b
}

// plainID reports whether id is a JSON-RPC id: a string or a number.
func plainID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9')
}

// cut shortens s to at most n bytes, at a character's boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// refuseOpen answers a request that would open a session with a JSON-RPC
// error: the code and its sentence, as "<code>: <sentence>", and the code
// again in the error's data.
func refuseOpen(w http.ResponseWriter, status int, id json.RawMessage, e *messages.Error) {
	if len(id) == 0 {
		id = json.RawMessage(`null`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{Code: rpcServerError, Message: string(e.Code) + ": " + e.Message, Data: map[string]string{"code": string(e.Code)}}})
}

// rpcServerError is JSON-RPC's code for an error the server defines.
const rpcServerError = -32000

type rpcError struct {
	Code    int               `json:"code"`
	Message string            `json:"message"`
	Data    map[string]string `json:"data"`
}
