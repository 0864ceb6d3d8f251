package messages

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"regexp"
)

// The extension's wire: one JSON text message per WebSocket message, with
// a "type". The extension speaks first, with a hello carrying its random
// nonce and no token. buddi answers a proof: a nonce of its own, the
// address the socket reached (buddi's end of it) and a signature, an
// HMAC-SHA-256 keyed by the SHA-256 of the token it stored, over both
// nonces, that address and the extension's id (ExtProof). The extension
// checks the signature with its own token and the address it dialled, and
// only then sends the token with its own proof over the same four things;
// buddi checks both and says ready. Neither side's proof is ever over a
// nonce the other chose alone, and neither verifies through a relay at
// another address. No command goes either way before ready. A hello
// asking to pair is answered with a code instead, and, once the owner
// typed it, with the token (paired); the extension then says hello again.

// Types of the extension's messages.
const (
	ExtHelloType     = "hello"
	ExtTokenType     = "token"
	ExtPongType      = "pong"
	ExtReplyType     = "reply"
	ExtAbandonedType = "abandoned"
	ExtForgetType    = "forget"
	ExtEventType     = "event"
)

// Types of buddi's messages.
const (
	ExtProofType   = "proof"
	ExtCodeType    = "code"
	ExtPairedType  = "paired"
	ExtReadyType   = "ready"
	ExtPingType    = "ping"
	ExtCommandType = "command"
	ExtAbandonType = "abandon"
	ExtRefusedType = "refused"
	ExtNoticeType  = "notice"
)

// ExtIn is one decoded message of the extension.
type ExtIn interface{ extIn() }

// ExtHello opens every connection: Nonce is base64 of 16 to 64 random
// bytes. Pair asks for a pairing code.
type ExtHello struct {
	Type  string `json:"type"`
	Nonce string `json:"nonce"`
	Pair  bool   `json:"pair,omitempty"`
	Build string `json:"build"`
}

// ExtToken is the extension's token, sent once buddi proved itself, with
// the extension's proof (base64 of ExtProof's MAC for ExtProver).
type ExtToken struct {
	Type  string `json:"type"`
	Token string `json:"token"`
	Proof string `json:"proof"`
}

// ExtPong answers ping Seq.
type ExtPong struct {
	Type string `json:"type"`
	Seq  int64  `json:"seq"`
}

// ExtReply answers command ID with a result or an error.
type ExtReply struct {
	Type   string          `json:"type"`
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// ExtAbandoned confirms the extension gave up command ID.
type ExtAbandoned struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
}

// ExtForget is the owner pressing Forget this buddi in the popup.
type ExtForget struct {
	Type string `json:"type"`
}

// ExtEvent is something that happened in one of the agents' tabs that
// buddi asked to hear of: a screencast frame, a navigation, the tab gone.
type ExtEvent struct {
	Type string          `json:"type"`
	Name string          `json:"name"`
	Tab  int64           `json:"tab"`
	Data json.RawMessage `json:"data,omitempty"`
}

func (*ExtEvent) extIn()     {}
func (*ExtHello) extIn()     {}
func (*ExtToken) extIn()     {}
func (*ExtPong) extIn()      {}
func (*ExtReply) extIn()     {}
func (*ExtAbandoned) extIn() {}
func (*ExtForget) extIn()    {}

// ExtOut is one of buddi's messages; EncodeExt writes it.
type ExtOut struct {
	Type    string          `json:"type"`
	Sig     string          `json:"sig,omitempty"`     // proof: base64 HMAC-SHA-256 (ExtProof)
	Nonce   string          `json:"nonce,omitempty"`   // proof: buddi's nonce, base64
	Addr    string          `json:"addr,omitempty"`    // proof: buddi's end of the socket
	Code    string          `json:"code,omitempty"`    // code: six digits
	Expires int64           `json:"expires,omitempty"` // code: Unix milliseconds
	Token   string          `json:"token,omitempty"`   // paired
	Buddi   string          `json:"buddi,omitempty"`   // paired, ready: which buddi
	Seq     int64           `json:"seq,omitempty"`     // ping
	ID      int64           `json:"id,omitempty"`      // command, abandon
	Method  string          `json:"method,omitempty"`  // command
	Params  json.RawMessage `json:"params,omitempty"`  // command
	Error   *Error          `json:"error,omitempty"`   // refused, notice
}

// EncodeExt writes one of buddi's messages.
func EncodeExt(m *ExtOut) []byte {
	b, err := json.Marshal(m)
	if err != nil { // only Params could fail, and it is checked JSON
		b, _ = json.Marshal(&ExtOut{Type: ExtNoticeType, Error: &Error{Code: CodeInternal, Message: "buddi could not encode a message."}})
	}
	return b
}

var (
	buildRe  = regexp.MustCompile(`^[0-9A-Za-z.+-]{1,32}$`)
	tokenRe  = regexp.MustCompile(`^[0-9A-Za-z_-]{16,200}$`)
	methodRe = regexp.MustCompile(`^[a-z][A-Za-z.]{0,63}$`)
)

// ValidMethod says whether name can be a command's method.
func ValidMethod(name string) bool { return methodRe.MatchString(name) }

func badExt(format string, args ...any) *Error { return Errorf(CodeBadMessage, format, args...) }

// DecodeExt reads one message of the extension strictly: a known type,
// no unknown fields, nothing after it, at most ExtMaxMessage bytes, and
// every field within its bounds.
func DecodeExt(b []byte) (ExtIn, *Error) {
	if len(b) > ExtMaxMessage {
		return nil, badExt("A message of the extension was larger than %d bytes.", ExtMaxMessage)
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, badExt("A message of the extension was not a JSON object.")
	}
	var in ExtIn
	switch head.Type {
	case ExtHelloType:
		in = &ExtHello{}
	case ExtTokenType:
		in = &ExtToken{}
	case ExtPongType:
		in = &ExtPong{}
	case ExtReplyType:
		in = &ExtReply{}
	case ExtAbandonedType:
		in = &ExtAbandoned{}
	case ExtForgetType:
		in = &ExtForget{}
	case ExtEventType:
		in = &ExtEvent{}
	default:
		return nil, badExt("The extension sent a message of unknown type %q.", Clip(head.Type, 60))
	}
	if err := decodeStrict(b, in); err != nil {
		return nil, badExt("A %s message of the extension is malformed: %s", head.Type, Clip(firstLine(err.Error()), 60))
	}
	if e := checkExt(in); e != nil {
		return nil, e
	}
	return in, nil
}

func checkExt(in ExtIn) *Error {
	switch m := in.(type) {
	case *ExtHello:
		n, err := base64.StdEncoding.DecodeString(m.Nonce)
		if err != nil || len(n) < 16 || len(n) > 64 {
			return badExt("The hello's nonce must be base64 of 16 to 64 random bytes.")
		}
		if !buildRe.MatchString(m.Build) {
			return badExt("The hello's build must be a version of up to 32 characters.")
		}
	case *ExtToken:
		return checkToken(m)
	case *ExtReply:
		return checkReply(m)
	case *ExtAbandoned:
		if m.ID <= 0 {
			return badExt("An abandoned message needs a positive id.")
		}
	case *ExtEvent:
		return checkEvent(m)
	case *ExtPong:
		if m.Seq <= 0 {
			return badExt("A pong needs the ping's positive seq.")
		}
	}
	return nil
}

func checkToken(m *ExtToken) *Error {
	if !tokenRe.MatchString(m.Token) {
		return badExt("The token is not one buddi gives.")
	}
	if p, err := base64.StdEncoding.DecodeString(m.Proof); err != nil || len(p) != 32 {
		return badExt("The token's proof must be base64 of an HMAC-SHA-256; update the extension to buddi's version.")
	}
	return nil
}

func checkEvent(m *ExtEvent) *Error {
	if !methodRe.MatchString(m.Name) || m.Tab <= 0 {
		return badExt("An event needs a name and the positive id of its tab.")
	}
	return nil
}

func checkReply(m *ExtReply) *Error {
	switch {
	case m.ID <= 0 || (m.Error == nil) == (len(m.Result) == 0):
		return badExt("A reply needs a positive id and either a result or an error.")
	case m.Error != nil && (m.Error.Code == "" || m.Error.Message == "" || len(m.Error.Message) > 1000):
		return badExt("A reply's error needs a code and one sentence.")
	case len(m.Result) > 0 && (!json.Valid(m.Result) || bytes.Equal(bytes.TrimSpace(m.Result), []byte("null"))):
		return badExt("A reply's result must be JSON other than null.")
	}
	return nil
}
