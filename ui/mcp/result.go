package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
)

// render turns a daemon result into an MCP tool result: one text content
// (the result's "text" first, then the rest as compact JSON, without an
// observation's observedAt, whose time the text opens with), an image when
// the result carries a base64 JPEG "screenshot", and the result object as
// structured content (without the screenshot, which the image carries).
// The structured content is the daemon's own fields as they came; only the
// text and the small rest are decoded.
func render(raw json.RawMessage) *mcp.CallToolResult {
	members, ok := messages.Members(raw)
	if !ok || !utf8.Valid(raw) {
		return renderDecoded(raw)
	}
	p, ok := readParts(len(raw), members)
	if !ok {
		return renderDecoded(raw)
	}
	text := p.text
	if p.observed && strings.HasPrefix(text, "Observed ") {
		// The text opens with the observation's time; the structured
		// content keeps the full observedAt.
		delete(p.rest, "observedAt")
	}
	if len(p.rest) > 0 || text == "" {
		text = joinText(text, string(encodeRest(p.rest)))
	}
	res := &mcp.CallToolResult{StructuredContent: p.structured, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if p.img != nil {
		res.Content = append(res.Content, &mcp.ImageContent{Data: p.img, MIMEType: "image/jpeg"})
	}
	return res
}

// parts is a result object read member by member: its text, its
// screenshot, whether it has an observedAt, the object without the
// screenshot, and the members beside the text (raw).
type parts struct {
	text       string
	img        []byte
	observed   bool
	structured json.RawMessage
	rest       map[string]json.RawMessage
}

// readParts reads the members of a result object of size bytes; false
// when its screenshot is not a JPEG in base64 (renderDecoded keeps such a
// field in the text).
func readParts(size int, members []messages.Member) (parts, bool) {
	p := parts{structured: make([]byte, 0, size), rest: make(map[string]json.RawMessage, len(members))}
	for _, m := range members {
		switch m.Key {
		case "screenshot":
			s, _ := stringValue(m.Value)
			if p.img = screenshot(s); p.img == nil {
				return p, false
			}
			continue
		case "text":
			if t, ok := stringValue(m.Value); ok && t != "" {
				p.text = t
			} else {
				p.rest[m.Key] = m.Value
			}
		default:
			p.observed = p.observed || m.Key == "observedAt"
			p.rest[m.Key] = m.Value
		}
		// Members takes only keys of plain ASCII: they need no escapes.
		p.structured = append(append(append(p.structured, `,"`...), m.Key...), `":`...)
		p.structured = append(p.structured, m.Value...)
	}
	if len(p.structured) == 0 {
		p.structured = append(p.structured, ',')
	}
	p.structured[0] = '{'
	p.structured = append(p.structured, '}')
	return p, true
}

// renderDecoded is render for a result Members does not take: decoded
// whole, then written again.
func renderDecoded(raw json.RawMessage) *mcp.CallToolResult {
	v, err := decode(raw)
	fields, ok := v.(map[string]any)
	if err != nil || !ok {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: plain(v, raw)}}}
	}
	res := &mcp.CallToolResult{}
	s, _ := fields["screenshot"].(string)
	img := screenshot(s)
	if img != nil {
		delete(fields, "screenshot")
	}
	res.StructuredContent = encode(fields)
	text, _ := fields["text"].(string)
	if text != "" {
		delete(fields, "text")
	}
	if strings.HasPrefix(text, "Observed ") {
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

// encodeRest is the fields of a result beside its text as the text shows
// them: compact JSON, keys in order, numbers as they came, without HTML
// escapes.
func encodeRest(rest map[string]json.RawMessage) json.RawMessage {
	fields := make(map[string]any, len(rest))
	for k, v := range rest {
		if d, err := decode(v); err == nil {
			fields[k] = d
		}
	}
	return encode(fields)
}

// stringValue is the JSON string v, decoded by messages' reader or, for
// what it leaves, by encoding/json.
func stringValue(v []byte) (string, bool) {
	if s, ok := messages.StringValue(v); ok {
		return s, true
	}
	var s string
	return s, len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil
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
func screenshot(s string) []byte {
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
