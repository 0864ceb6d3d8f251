package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
)

// render turns a daemon result into an MCP tool result: one text content
// (the result's "text" first, then the rest as compact JSON, without an
// observation's observedAt, whose time the text opens with), an image when
// the result carries a base64 JPEG "screenshot", and the result object as
// structured content (without the screenshot, which the image carries).
func render(raw json.RawMessage) *mcp.CallToolResult {
	v, err := decode(raw)
	fields, ok := v.(map[string]any)
	if err != nil || !ok {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: plain(v, raw)}}}
	}
	res := &mcp.CallToolResult{}
	img := screenshot(fields)
	if img != nil {
		delete(fields, "screenshot")
	}
	res.StructuredContent = encode(fields)
	text, _ := fields["text"].(string)
	if text != "" {
		delete(fields, "text")
	}
	if strings.HasPrefix(text, "Observed ") {
		// The text opens with the observation's time; the structured
		// content keeps the full observedAt.
		delete(fields, "observedAt")
	}
	if len(fields) > 0 || text == "" {
		text = joinText(text, string(encode(fields)))
	}
	res.Content = []mcp.Content{&mcp.TextContent{Text: text}}
	if img != nil {
		res.Content = append(res.Content, &mcp.ImageContent{Data: img, MIMEType: "image/jpeg"})
	}
	return res
}

// failure turns a forwarding error into an IsError tool result, naming
// tools as the MCP client knows them.
func failure(err error) *mcp.CallToolResult {
	var e *messages.Error
	if !errors.As(err, &e) {
		e = errInternal()
	}
	me := &messages.Error{Code: e.Code, Message: clientNames.Replace(e.Message), Observation: e.Observation, Script: e.Script}
	text := me.Error()
	if s := e.Script; s != nil {
		steps := encode(s.Steps)
		text = joinText(text, "Steps that ran: "+string(steps))
		if s.Text != "" {
			text = joinText(text, s.Text)
		}
	}
	if o := e.Observation; o != nil {
		text = joinText(text, "Observation "+o.ID+" ("+o.URL+"):\n"+o.Text)
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: me,
	}
}

// screenshot decodes the result's base64 JPEG, or returns nil.
func screenshot(fields map[string]any) []byte {
	s, _ := fields["screenshot"].(string)
	if s == "" {
		return nil
	}
	img, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(img) == 0 {
		return nil
	}
	return img
}

func joinText(text, rest string) string {
	if text == "" {
		return rest
	}
	return text + "\n\n" + rest
}

// decode reads JSON keeping numbers exact.
func decode(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// encode is compact JSON without HTML escaping, so page text stays readable.
func encode(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return json.RawMessage("null")
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// plain is a non-object result as text: a JSON string as itself, anything
// else as compact JSON (or as received, if it is not JSON).
func plain(v any, raw json.RawMessage) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		if json.Valid(raw) {
			return "null"
		}
		return string(raw)
	default:
		return string(encode(v))
	}
}
