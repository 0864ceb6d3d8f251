package messages

import "time"

// PairTelegram records the owner's Telegram chat: the user who sent the
// pairing code and the private chat it came from (the bot checked the code).
type PairTelegram struct {
	User int64
	Chat int64
	Name string // the user's @name or first name, for the owner to recognise
}

// UnpairTelegram forgets the paired chat and every binding to it.
type UnpairTelegram struct{}

// BindTelegram binds a conversation to the paired chat, or unbinds it.
type BindTelegram struct {
	Conversation string
	Bound        bool
}

// GetTelegram asks for the pairing and the bound conversations.
type GetTelegram struct{}

// TelegramView is the pairing as the owner sees it; answers the three
// messages above.
type TelegramView struct {
	Paired   bool      `json:"paired"`
	User     int64     `json:"user,omitempty"`
	Chat     int64     `json:"chat,omitempty"`
	Name     string    `json:"name,omitempty"`
	PairedAt time.Time `json:"pairedAt,omitzero"`
	// Bound lists the conversations bound to the chat, sorted.
	Bound []string `json:"bound"`
	// Bot is what the running bot knows of itself; the HTTP surface adds it.
	Bot *TelegramBot `json:"bot,omitempty"`
}

// TelegramBot is the bot's own state: whether a token is configured, the
// bot's @name once Telegram has told it, and how its polling goes.
type TelegramBot struct {
	Configured bool   `json:"configured"`
	Username   string `json:"username,omitempty"`
	Polling    bool   `json:"polling"`           // the last getUpdates answered
	Problem    string `json:"problem,omitempty"` // the last error, in one sentence
}

// TelegramLink answers a pairing request: the link that opens the bot with
// the one-time code, and until when the code holds.
type TelegramLink struct {
	Link    string    `json:"link"`
	Expires time.Time `json:"expires"`
}

// TelegramChanged says the pairing or the bindings changed.
type TelegramChanged struct {
	View TelegramView
	At   time.Time
}

// Kind is KindTelegram.
func (*TelegramChanged) Kind() EventKind { return KindTelegram }

// Key is the one pairing.
func (*TelegramChanged) Key() EventKey { return EventKey{Kind: KindTelegram} }

// About is "": the pairing is about every conversation.
func (*TelegramChanged) About() string { return "" }

func (*TelegramView) answer() {}
func (*TelegramLink) answer() {}

// BindSurface tells a session which surface its conversation is bound to,
// whenever that changes (the controller sends it).
type BindSurface struct{ Surface Surface }
