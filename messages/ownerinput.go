package messages

import "time"

// OwnerBody is what the owner API's routes accept; each route reads its own
// fields.
type OwnerBody struct {
	Conversation string `json:"conversation"`
	To           string `json:"to"` // the new id of a moved conversation
	All          bool   `json:"all"`
	Agent        string `json:"agent"`
	Description  string `json:"description"`
	Steps        int    `json:"steps"`
	Minutes      int    `json:"minutes"`
	Accept       bool   `json:"accept"`
	Name         string `json:"name"`
	AutoApprove  bool   `json:"autoApprove"`
	Site         string `json:"site"`
	Decision     string `json:"decision"`
	// The dashboard's fields: browser settings, an address to open, a
	// device to sign out, a one-time sign-in token.
	Mode         *string `json:"mode"`
	Channel      *string `json:"channel"`
	Headless     *bool   `json:"headless"`
	SiteApproval *string `json:"siteApproval"`
	AirGap       *bool   `json:"airGap"`
	// Use my apps: the browser app and the allowed apps, by id.
	BrowserApp  *string   `json:"browserApp"`
	AllowedApps *[]string `json:"allowedApps"`
	URL         string    `json:"url"`
	ID          string    `json:"id"`
	Token       string    `json:"token"`
	// Your browser: the pairing code the extension shows.
	Code string `json:"code"`
	// An owner secret to store: the origins it is for and its value, which
	// is written to the vault and never echoed, logged or kept elsewhere.
	Origins []string `json:"origins"`
	Value   string   `json:"value"`
}

// DecodeOwnerBody reads an owner request's body; an empty body is an empty
// OwnerBody.
func DecodeOwnerBody(raw []byte) (*OwnerBody, *Error) {
	var b OwnerBody
	if len(raw) == 0 {
		return &b, nil
	}
	if err := decodeStrict(raw, &b); err != nil {
		return nil, &Error{Code: CodeBadInput, Message: "The body is not valid JSON for this route: " + FirstLine(err.Error())}
	}
	return &b, nil
}

// Session controls need a conversation.
func (b *OwnerBody) needConversation() *Error {
	if b.Conversation == "" {
		return &Error{Code: CodeBadInput, Message: "Name the session: {\"conversation\": \"…\"}."}
	}
	return nil
}

// TakeOver is the body as a take-over.
func (b *OwnerBody) TakeOver() (any, *Error) {
	return &TakeOver{Conversation: b.Conversation}, b.needConversation()
}

// Resume is the body as a resume, or a resume of all access with "all".
func (b *OwnerBody) Resume() (any, *Error) {
	if b.All {
		return &ResumeAll{}, nil
	}
	return &Resume{Conversation: b.Conversation}, b.needConversation()
}

// Release is the body as a release.
func (b *OwnerBody) Release() (any, *Error) {
	return &Release{Conversation: b.Conversation}, b.needConversation()
}

// Screenshots is the body as a request for a session's thumbnails.
func (b *OwnerBody) Screenshots() (any, *Error) {
	return &Screenshots{Conversation: b.Conversation}, b.needConversation()
}

// StartTask is the body as a new task.
func (b *OwnerBody) StartTask() (any, *Error) {
	return &StartTask{Agent: b.Agent, Conversation: b.Conversation, Description: b.Description,
		Steps: b.Steps, Lifetime: time.Duration(b.Minutes) * time.Minute}, nil
}

// DecideTask is the body as the owner's answer to a task request.
func (b *OwnerBody) DecideTask() (any, *Error) {
	return &DecideTask{Conversation: b.Conversation, Accept: b.Accept}, b.needConversation()
}

// DecideSite is the body as the owner's answer to a site request.
func (b *OwnerBody) DecideSite() (any, *Error) {
	switch b.Decision {
	case DecideOnce, DecideAlways, DecideReject:
	default:
		return nil, &Error{Code: CodeBadInput, Message: "The decision must be once, always or reject."}
	}
	return &DecideSite{Conversation: b.Conversation, Site: b.Site, Decision: b.Decision}, b.needConversation()
}

// Bind is the body as binding a conversation to the paired Telegram chat.
func (b *OwnerBody) Bind() (any, *Error) {
	return &BindTelegram{Conversation: b.Conversation, Bound: true}, b.needConversation()
}

// Unbind is the body as unbinding a conversation from the paired chat.
func (b *OwnerBody) Unbind() (any, *Error) {
	return &BindTelegram{Conversation: b.Conversation}, b.needConversation()
}

// AddAgent is the body as a new agent.
func (b *OwnerBody) AddAgent() (any, *Error) {
	return &AddAgent{Name: b.Name, AutoApprove: b.AutoApprove}, nil
}

// RevokeSite is the body as a revocation of a site's answers.
func (b *OwnerBody) RevokeSite() (any, *Error) {
	if b.Site == "" {
		return nil, &Error{Code: CodeBadInput, Message: "Name the site: {\"site\": \"https://example.com\"}; `buddi sites` lists them."}
	}
	return &RevokeSite{Site: b.Site}, nil
}

// SignOut is the body as a sign-out of one site, or of all with "all".
func (b *OwnerBody) SignOut() (any, *Error) {
	if (b.Site == "") == !b.All {
		return nil, &Error{Code: CodeBadInput, Message: "Name one site, {\"site\": \"example.com\"}, or sign out of all with {\"all\": true}; `buddi logins` lists them."}
	}
	return &SignOut{Site: b.Site, All: b.All}, nil
}
