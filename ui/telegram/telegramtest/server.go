package telegramtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Token is the bot token the fake accepts.
const Token = "123456:TEST-token-for-the-fake-bot-api_0123"

// BotName is the @name getMe gives.
const BotName = "buddi_test_bot"

// Call is one call the fake received.
type Call struct {
	Method string
	Fields map[string]string // every field, files aside; JSON values as sent
	Files  map[string]File
	At     time.Time
	// MessageID is the id the fake gave the message a send made (0 for
	// other calls and for sends it was scripted to fail).
	MessageID int
}

// File is an uploaded part.
type File struct {
	Name string // the part's file name ("" as telebot sends it)
	Data []byte
}

// Answer is a scripted answer: an HTTP status and a body.
type Answer struct {
	Status int
	Body   string
}

// Server is the fake Bot API.
type Server struct {
	URL string
	srv *httptest.Server

	mu      sync.Mutex
	calls   []Call
	changed chan struct{} // closed and replaced on every call
	updates []json.RawMessage
	nextID  int // the next update's id
	msgID   int
	script  map[string][]Answer
	hold    time.Duration
	held    map[string]chan struct{} // methods whose answers wait until closed
}

// Start starts the fake on 127.0.0.1; it stops when the test ends. A
// getUpdates with nothing to give is held until an update comes or at most
// hold (its own timeout when shorter).
func Start(t testing.TB, hold time.Duration) *Server {
	t.Helper()
	s := &Server{changed: make(chan struct{}), nextID: 1, msgID: 100, script: map[string][]Answer{}, hold: hold,
		held: map[string]chan struct{}{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// Close stops the fake and ends held polls.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Script makes the next calls of method answer with answers, in order.
func (s *Server) Script(method string, answers ...Answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script[method] = append(s.script[method], answers...)
}

// Hold makes the calls of method wait, each recorded as "held:<method>"
// when it arrives, until release is called: a chat that does not answer.
func (s *Server) Hold(method string) (release func()) {
	gate := make(chan struct{})
	s.mu.Lock()
	s.held[method] = gate
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.held, method)
			s.mu.Unlock()
			close(gate)
		})
	}
}

// Scripted is how many scripted answers of method are still to be given.
func (s *Server) Scripted(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script[method])
}

// Flood is the 429 answer with retry_after seconds.
func Flood(seconds int) Answer {
	return Answer{Status: 429, Body: fmt.Sprintf(`{"ok":false,"error_code":429,"description":"Too Many Requests: retry after %d","parameters":{"retry_after":%d}}`, seconds, seconds)}
}

// Failing is an error answer with code and description.
func Failing(code int, desc string) Answer {
	b, _ := json.Marshal(map[string]any{"ok": false, "error_code": code, "description": desc})
	return Answer{Status: code, Body: string(b)}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	method, ok := s.route(r.URL.Path)
	if !ok {
		writeAnswer(w, Failing(401, "Unauthorized"))
		return
	}
	fields, files, err := readBody(r)
	if err != nil {
		writeAnswer(w, Failing(400, "Bad Request: "+err.Error()))
		return
	}
	call := Call{Method: method, Fields: fields, Files: files, At: time.Now()}
	s.mu.Lock()
	gate := s.held[method]
	s.mu.Unlock()
	if gate != nil {
		s.record(Call{Method: "held:" + method, Fields: fields, At: time.Now()})
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	if a, ok := s.scripted(method); ok {
		s.record(call)
		writeAnswer(w, a)
		return
	}
	switch method {
	case "getMe":
		s.record(call)
		writeOK(w, map[string]any{"id": 123456, "is_bot": true, "first_name": "buddi", "username": BotName})
	case "getUpdates":
		s.record(call)
		s.getUpdates(w, r, fields)
	case "sendMessage", "sendPhoto", "editMessageText":
		m := s.message(fields, files)
		call.MessageID = m["message_id"].(int)
		s.record(call)
		writeOK(w, m)
	default:
		s.record(call)
		writeOK(w, true)
	}
}

// route reads /bot<token>/<method>; a wrong token is not a route.
func (s *Server) route(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/bot"+Token+"/")
	return rest, ok && rest != "" && !strings.Contains(rest, "/")
}

func (s *Server) record(c Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) scripted(method string) (Answer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.script[method]
	if len(q) == 0 {
		return Answer{}, false
	}
	s.script[method] = q[1:]
	return q[0], true
}

// message is what Telegram answers a send with: the message, as a bot
// reads it back.
func (s *Server) message(fields map[string]string, files map[string]File) map[string]any {
	chat, _ := strconv.ParseInt(fields["chat_id"], 10, 64)
	id, err := strconv.Atoi(fields["message_id"]) // an edit answers with the message edited
	if err != nil {
		s.mu.Lock()
		s.msgID++
		id = s.msgID
		s.mu.Unlock()
	}
	m := map[string]any{"message_id": id, "date": time.Now().Unix(),
		"chat": map[string]any{"id": chat, "type": "private"}, "text": fields["text"]}
	if f, ok := files["photo"]; ok {
		m["photo"] = []map[string]any{{"file_id": fmt.Sprintf("photo-%d", id), "file_unique_id": fmt.Sprintf("u%d", id),
			"width": 320, "height": 200, "file_size": len(f.Data)}}
		m["caption"] = fields["caption"]
		delete(m, "text")
	}
	return m
}

func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, fields map[string]string) {
	offset, _ := strconv.Atoi(fields["offset"])
	wait := s.hold
	if secs, err := strconv.Atoi(fields["timeout"]); err == nil && time.Duration(secs)*time.Second < wait {
		wait = time.Duration(secs) * time.Second
	}
	ctx, cancel := context.WithTimeout(r.Context(), wait)
	defer cancel()
	for {
		s.mu.Lock()
		var out []json.RawMessage
		for i, u := range s.updates {
			if i+1 >= offset {
				out = append(out, u)
			}
		}
		changed := s.changed
		s.mu.Unlock()
		if len(out) > 0 {
			writeOK(w, out)
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			writeOK(w, []json.RawMessage{})
			return
		}
	}
}

func writeOK(w http.ResponseWriter, result any) {
	b, _ := json.Marshal(map[string]any{"ok": true, "result": result})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

func writeAnswer(w http.ResponseWriter, a Answer) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.Status)
	_, _ = io.WriteString(w, a.Body)
}

// readBody reads a JSON object of fields, or a multipart form part by
// part: a part with a file name, or named as a file field, is a file.
func readBody(r *http.Request) (map[string]string, map[string]File, error) {
	fields, files := map[string]string{}, map[string]File{}
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil || len(raw) == 0 || string(raw) == "null\n" {
			return fields, files, err
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, nil, err
		}
		for k, v := range m {
			fields[k] = text(v)
		}
		return fields, files, nil
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return fields, files, nil
		}
		if err != nil {
			return nil, nil, err
		}
		data, err := io.ReadAll(io.LimitReader(p, 20<<20))
		if err != nil {
			return nil, nil, err
		}
		if _, isFile := p.Header["Content-Type"]; isFile || fileFields[p.FormName()] {
			files[p.FormName()] = File{Name: p.FileName(), Data: data}
			continue
		}
		fields[p.FormName()] = string(data)
	}
}

// fileFields are the fields the Bot API takes files in.
var fileFields = map[string]bool{"photo": true, "document": true}

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
