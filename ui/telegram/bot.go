package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	tele "gopkg.in/telebot.v3"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/limit"
)

// Actors is what the bot needs of the actors' client (the gateway).
type Actors interface {
	Owner(ctx context.Context, msg any) *messages.OwnerReply
	Health(ctx context.Context) (*messages.Health, *messages.Error)
	Subscribe(f events.Filter) *events.Subscription
}

// Pages says whether a page is on the install's browser hosts
// (*egress.Policy satisfies it).
type Pages interface{ Listed(pageURL string) bool }

// Config is what a bot needs.
type Config struct {
	Token  string // BUDDI_TELEGRAM_TOKEN
	API    string // BUDDI_TELEGRAM_API, the Bot API's base URL
	Actors Actors
	Pages  Pages
	// Mode names the install's mode as it is now (the owner may switch it
	// while the bot runs), asked at every picture; pictures of modes other
	// than the browser ones need a check of their own in Checks, and fail
	// closed without. Nil fails every picture closed.
	Mode   func() string
	Checks []Check
	// AppListed reports whether an app, by id, is on the owner's list of
	// Use my apps (the browser app included); nil lists none.
	AppListed func(id string) bool
	// PublicOrigin is BUDDI_WEB_PUBLIC_ORIGIN; Addr is the loopback
	// address buddi serves on. Together they make the Take over link.
	PublicOrigin string
	Addr         string
	// Tailnet is the dashboard's address on the tailnet ("" when off or
	// not up yet): with no public origin, the Take over link is there,
	// which a phone signed in through Tailscale opens signed in.
	Tailnet func() string
	// Limiter counts failed pairing codes; the dashboard's sign-ins share it.
	Limiter *limit.Limiter
	// Record adds a line to the audit trail for what the bot decides
	// itself, a failed pairing (nil: no trail).
	Record func(*messages.AuditRecord)
	Log    *slog.Logger
	Clock  Clock // nil: the wall clock
	Tuning Tuning
}

// Tuning is the bot's timing; zero fields take the defaults.
type Tuning struct {
	Pace       time.Duration // between two messages to the chat (1s)
	Poll       time.Duration // how long one getUpdates waits for updates (25s)
	BackoffMin time.Duration // the wait after a first failed poll (1s)
	BackoffMax time.Duration // the longest wait between failed polls (60s)
	CodeLife   time.Duration // how long a pairing code holds (10 minutes)
}

func (t Tuning) withDefaults() Tuning {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&t.Pace, time.Second)
	def(&t.Poll, 25*time.Second)
	def(&t.BackoffMin, time.Second)
	def(&t.BackoffMax, time.Minute)
	def(&t.CodeLife, 10*time.Minute)
	return t
}

// Bot is the Telegram surface.
type Bot struct {
	cfg   Config
	tune  Tuning
	clock Clock
	log   *slog.Logger
	tb    *tele.Bot
	out   *outbox

	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	lastPoll time.Time // when the poll in flight began (wall clock); the poller's own

	mu      sync.Mutex
	view    messages.TelegramView // the pairing and the bound conversations
	me      string                // the bot's @name, once getMe answered
	polling bool
	problem string
	code    *pairCode
	pages   map[string]string // conversation → the page of its last photo
	photos  *recent           // message id of a photo → its conversation
	cards   *cardBook
}

// ErrConfig marks a configuration the bot cannot start with.
var ErrConfig = errors.New("telegram: configuration")

// New builds a bot; Start runs it.
func New(cfg Config) (*Bot, error) {
	if cfg.Token == "" || cfg.API == "" || cfg.Actors == nil || cfg.Pages == nil {
		return nil, fmt.Errorf("%w: a token, the Bot API's address, the actors and the page check are needed", ErrConfig)
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Record == nil {
		cfg.Record = func(*messages.AuditRecord) {}
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	if cfg.Limiter == nil {
		cfg.Limiter = limit.New(limit.Config{Local: []string{LimitPrefix}, Now: cfg.Clock.Now})
	}
	b := &Bot{cfg: cfg, tune: cfg.Tuning.withDefaults(), clock: cfg.Clock, log: cfg.Log.With("surface", "telegram"),
		out: newOutbox(), pages: map[string]string{}, photos: newRecent(maxRecent), cards: newCardBook()}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	tb, err := tele.NewBot(tele.Settings{URL: cfg.API, Token: cfg.Token, Offline: true, Synchronous: true,
		Client: newClient(b.ctx, b.tune.Poll), Poller: &tele.LongPoller{},
		OnError: func(err error, _ tele.Context) { b.log.Warn("a telegram handler failed", "err", err) }})
	if err != nil {
		b.cancel()
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	b.tb = tb
	b.handlers()
	return b, nil
}

// Start reads the pairing and runs the poller, the watcher and the sender.
func (b *Bot) Start() {
	sub := b.cfg.Actors.Subscribe(events.Filter{
		Kinds: messages.KindStep | messages.KindTask | messages.KindApproval | messages.KindTelegram})
	b.run(func() { b.pollLoop(b.ctx) })
	b.run(func() { b.watch(b.ctx, sub) })
	b.run(func() { b.sendLoop(b.ctx) })
}

func (b *Bot) run(f func()) {
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		f()
	}()
}

// Close ends every request in flight and waits for the bot's goroutines,
// until ctx ends.
func (b *Bot) Close(ctx context.Context) error {
	b.cancel()
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("telegram: the bot did not stop in time: %w", ctx.Err())
	}
}

// State is the bot's own state, for the owner API and doctor.
func (b *Bot) State() messages.TelegramBot {
	b.mu.Lock()
	defer b.mu.Unlock()
	return messages.TelegramBot{Configured: true, Username: b.me, Polling: b.polling, Problem: b.problem}
}

// Coalesced is how many waiting messages gave way to newer ones.
func (b *Bot) Coalesced() int { return b.out.Dropped() }

// chat is the paired chat, if any.
func (b *Bot) chat() (int64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.view.Chat, b.view.Paired
}

// ownerWait bounds one owner control the bot makes for the owner.
const ownerWait = 30 * time.Second

// ask sends one owner control to the actors within ownerWait.
func (b *Bot) ask(msg any) *messages.OwnerReply {
	ctx, cancel := context.WithTimeout(b.ctx, ownerWait)
	defer cancel()
	return b.cfg.Actors.Owner(ctx, msg)
}
