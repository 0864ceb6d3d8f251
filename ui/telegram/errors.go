package telegram

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	tele "gopkg.in/telebot.v3"
)

// ErrGarbled marks an answer of the Bot API that telebot could not read.
var ErrGarbled = errors.New("telegram: the Bot API gave an answer that cannot be read")

// failure is what a failed call to the Bot API means for the next one.
type failure int

const (
	failNone      failure = iota
	failFlood             // 429: wait retry_after, then try again
	failButton            // the message's button was refused: send it without
	failTransient         // the network, a 5xx, a garbled answer: back off and retry
	failRefused           // a 4xx about this message: retrying will not help
)

// maxRetryAfter bounds the wait a 429 asks for: a server asking for more is
// broken, and the bot should come back to it within the hour.
const maxRetryAfter = time.Hour

// classify says what err means, and for a 429 how long to wait.
func classify(err error) (failure, time.Duration) {
	if err == nil {
		return failNone, 0
	}
	var flood tele.FloodError
	if errors.As(err, &flood) {
		wait := time.Duration(max(flood.RetryAfter, 1)) * time.Second
		return failFlood, min(wait, maxRetryAfter)
	}
	var te *tele.Error
	if errors.As(err, &te) {
		switch {
		case te.Code == 400 && buttonRefused(te.Description):
			return failButton, 0
		case te.Code == 429:
			return failFlood, time.Second
		case te.Code >= 400 && te.Code < 500:
			return failRefused, 0
		}
		return failTransient, 0
	}
	// telebot reports codes it has no value for as "telegram: <desc> (<code>)".
	s := err.Error()
	if m := trailingCode.FindStringSubmatch(s); m != nil {
		switch code, _ := strconv.Atoi(m[1]); {
		case code == 400 && buttonRefused(s):
			return failButton, 0
		case code == 429:
			return failFlood, time.Second
		case code >= 400 && code < 500:
			return failRefused, 0
		}
	}
	return failTransient, 0
}

var trailingCode = regexp.MustCompile(`\((\d{3})\)$`)

// buttonRefused reports whether Telegram refused a message for its
// button's URL (it refuses localhost and bare addresses, for instance).
func buttonRefused(desc string) bool {
	d := strings.ToUpper(desc)
	return strings.Contains(d, "BUTTON_URL_INVALID") || strings.Contains(d, "BUTTON") && strings.Contains(d, "URL")
}
