package extwire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"regexp"

	"github.com/buddi-dev/buddi/messages"
)

// Types of the extension's messages.
const (
	HelloType     = "hello"
	TokenType     = "token"
	PongType      = "pong"
	ReplyType     = "reply"
	AbandonedType = "abandoned"
	ForgetType    = "forget"
	EventType     = "event"
)

// Types of buddi's messages.
const (
	ProofType   = "proof"
	CodeType    = "code"
	PairedType  = "paired"
	ReadyType   = "ready"
	PingType    = "ping"
	CommandType = "command"
	AbandonType = "abandon"
	RefusedType = "refused"
	NoticeType  = "notice"
)

// In is one decoded message of the extension. Each marks itself with
// ExtIn: the contract's ExtensionLink takes it as a messages.ExtIn.
type In = messages.ExtIn

// Hello opens every connection: Nonce is base64 of 16 to 64 random
// bytes. Pair asks for a pairing code.
type Hello struct {
	Type  string `json:"type"`
	Nonce string `json:"nonce"`
	Pair  bool   `json:"pair,omitempty"`
	Build string `json:"build"`
}

// Token is the extension's token, sent once buddi proved itself, with
// the extension's proof (base64 of Proof's MAC for ExtProver).
type Token struct {
	Type  string `json:"type"`
	Token string `json:"token"`
	Proof string `json:"proof"`
}

// Pong answers ping Seq.
type Pong struct {
	Type string `json:"type"`
	Seq  int64  `json:"seq"`
}

// Reply answers command ID with a result or an error.
type Reply struct {
	Type   string          `json:"type"`
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *messages.Error `json:"error,omitempty"`
}

// Abandoned confirms the extension gave up command ID.
type Abandoned struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
}

// Forget is the owner pressing Forget this buddi in the popup.
type Forget struct {
	Type string `json:"type"`
}

// Event is something that happened in one of the agents' tabs that
// buddi asked to hear of: a screencast frame, a navigation, the tab gone.
type Event struct {
	Type string          `json:"type"`
	Name string          `json:"name"`
	Tab  int64           `json:"tab"`
	Data json.RawMessage `json:"data,omitempty"`
}

// ExtIn marks Event as a message the extension sends.
func (*Event) ExtIn() {}

// ExtIn marks Hello as a message the extension sends.
func (*Hello) ExtIn() {}

// ExtIn marks Token as a message the extension sends.
func (*Token) ExtIn() {}

// ExtIn marks Pong as a message the extension sends.
func (*Pong) ExtIn() {}

// ExtIn marks Reply as a message the extension sends.
func (*Reply) ExtIn() {}

// ExtIn marks Abandoned as a message the extension sends.
func (*Abandoned) ExtIn() {}

// ExtIn marks Forget as a message the extension sends.
func (*Forget) ExtIn() {}

// Out is one of buddi's messages; Encode writes it.
type Out struct {
	Type    string          `json:"type"`
	Sig     string          `json:"sig,omitempty"`     // proof: base64 HMAC-SHA-256 (Proof)
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
	Error   *messages.Error `json:"error,omitempty"`   // refused, notice
}

// Encode writes one of buddi's messages.
func Encode(m *Out) []byte {
	b, err := json.Marshal(m)
	if err != nil { // only Params could fail, and it is checked JSON
		b, _ = json.Marshal(&Out{Type: NoticeType, Error: &messages.Error{Code: messages.CodeInternal, Message: "buddi could not encode a message."}})
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

func badExt(format string, args ...any) *messages.Error {
	return messages.Errorf(messages.CodeBadMessage, format, args...)
}

// Decode reads one message of the extension strictly: a known type,
// no unknown fields, nothing after it, at most MaxMessage bytes, and
// every field within its bounds.
func Decode(b []byte) (In, *messages.Error) {
	if len(b) > MaxMessage {
		return nil, badExt("A message of the extension was larger than %d bytes.", MaxMessage)
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, badExt("A message of the extension was not a JSON object.")
	}
	var in In
	switch head.Type {
	case HelloType:
		in = &Hello{}
	case TokenType:
		in = &Token{}
	case PongType:
		in = &Pong{}
	case ReplyType:
		in = &Reply{}
	case AbandonedType:
		in = &Abandoned{}
	case ForgetType:
		in = &Forget{}
	case EventType:
		in = &Event{}
	default:
		return nil, badExt("The extension sent a message of unknown type %q.", messages.Clip(head.Type, 60))
	}
	if err := messages.DecodeStrict(b, in); err != nil {
		return nil, badExt("A %s message of the extension is malformed: %s", head.Type, messages.Clip(messages.FirstLine(err.Error()), 60))
	}
	if e := checkExt(in); e != nil {
		return nil, e
	}
	return in, nil
}

func checkExt(in In) *messages.Error {
	switch m := in.(type) {
	case *Hello:
		n, err := base64.StdEncoding.DecodeString(m.Nonce)
		if err != nil || len(n) < 16 || len(n) > 64 {
			return badExt("The hello's nonce must be base64 of 16 to 64 random bytes.")
		}
		if !buildRe.MatchString(m.Build) {
			return badExt("The hello's build must be a version of up to 32 characters.")
		}
	case *Token:
		return checkToken(m)
	case *Reply:
		return checkReply(m)
	case *Abandoned:
		if m.ID <= 0 {
			return badExt("An abandoned message needs a positive id.")
		}
	case *Event:
		return checkEvent(m)
	case *Pong:
		if m.Seq <= 0 {
			return badExt("A pong needs the ping's positive seq.")
		}
	}
	return nil
}

func checkToken(m *Token) *messages.Error {
	if !tokenRe.MatchString(m.Token) {
		return badExt("The token is not one buddi gives.")
	}
	if p, err := base64.StdEncoding.DecodeString(m.Proof); err != nil || len(p) != 32 {
		return badExt("The token's proof must be base64 of an HMAC-SHA-256; update the extension to buddi's version.")
	}
	return nil
}

func checkEvent(m *Event) *messages.Error {
	if !methodRe.MatchString(m.Name) || m.Tab <= 0 {
		return badExt("An event needs a name and the positive id of its tab.")
	}
	return nil
}

func checkReply(m *Reply) *messages.Error {
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
