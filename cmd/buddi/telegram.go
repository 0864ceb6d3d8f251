package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

func init() {
	register(&command{name: "telegram", args: "status | pair | unpair | bind CONVERSATION | unbind CONVERSATION",
		summary: "pair your Telegram chat and choose the conversations it follows", run: telegramCmd})
}

const telegramHelp = `Usage: buddi telegram status | pair | unpair | bind CONVERSATION | unbind CONVERSATION

The bot runs inside buddi serve when BUDDI_TELEGRAM_TOKEN holds its token from @BotFather.
pair prints a one-time link; open it on your phone and press Start to pair that chat.
A conversation bound to the chat gets a photo per step there (a task you start from
Telegram binds its conversation by itself); unpair forgets the chat and its bindings.`

func telegramCmd(e *env, args []string) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprintln(e.stdout, telegramHelp)
		return exitOK
	}
	rest := args[1:]
	switch args[0] {
	case "status":
		return ownerRun(e, "telegram", rest, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
			v, err := o.Telegram(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, telegramStatus(v))
			return nil
		})
	case "pair":
		return ownerRun(e, "telegram", rest, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
			l, err := o.PairTelegram(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "Open this link on the phone you want to pair, and press Start (it works once, until %s):\n%s\n",
				l.Expires.Local().Format(time.Kitchen), l.Link)
			return nil
		})
	case "unpair":
		return ownerRun(e, "telegram", rest, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
			if err := o.UnpairTelegram(ctx); err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, "Unpaired: the bot no longer answers that chat, and no conversation is bound to it.")
			return nil
		})
	case "bind", "unbind":
		bound := args[0] == "bind"
		return ownerRun(e, "telegram", rest, 1, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
			if _, err := o.BindTelegram(ctx, f.arg(0), bound); err != nil {
				return err
			}
			if bound {
				fmt.Fprintf(e.stdout, "%s is bound: its steps come to the paired chat.\n", f.arg(0))
			} else {
				fmt.Fprintf(e.stdout, "%s is unbound: its steps no longer go to Telegram.\n", f.arg(0))
			}
			return nil
		})
	}
	fmt.Fprintf(e.stderr, "buddi telegram: %q is not a subcommand; use status, pair, unpair, bind or unbind.\n", args[0])
	return exitUsage
}

// telegramStatus says in a few lines what the bot and the pairing are.
func telegramStatus(v messages.TelegramView) string {
	var lines []string
	switch b := v.Bot; {
	case b == nil || !b.Configured:
		lines = append(lines, "Bot: not configured (set BUDDI_TELEGRAM_TOKEN and restart buddi serve).")
	case b.Username == "":
		lines = append(lines, "Bot: configured, but it has not reached Telegram yet: "+or(b.Problem, "it is starting")+".")
	case !b.Polling && b.Problem != "":
		lines = append(lines, "Bot: @"+b.Username+", but polling fails: "+b.Problem+".")
	default:
		lines = append(lines, "Bot: @"+b.Username+", polling.")
	}
	if v.Paired {
		lines = append(lines, fmt.Sprintf("Paired with %s (chat %d) since %s.", or(v.Name, "a chat"), v.Chat, v.PairedAt.Local().Format(time.DateTime)))
	} else {
		lines = append(lines, "Not paired: `buddi telegram pair` prints the link.")
	}
	if len(v.Bound) > 0 {
		lines = append(lines, "Bound: "+strings.Join(v.Bound, ", ")+".")
	} else {
		lines = append(lines, "No conversation is bound.")
	}
	return strings.Join(lines, "\n")
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
