package main_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

func TestTelegramPairBindStatusAndDoctor(t *testing.T) {
	fake := telegramtest.Start(t, time.Minute) // holds each poll as Telegram does: serve polls with its own 25 s timeout
	env := []string{"BUDDI_TELEGRAM_TOKEN=" + telegramtest.Token, "BUDDI_TELEGRAM_API=" + fake.URL}
	dir := t.TempDir()
	serve(t, dir, env...)
	cli := func(args ...string) result {
		t.Helper()
		return runCLI(t, env, append(args, "--data", dir)...)
	}
	if r := cli("telegram", "status"); r.code != 0 || !strings.Contains(r.stdout, "Not paired") {
		t.Fatalf("status before pairing: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := cli("telegram", "bind", "c1"); r.code != 1 || !strings.Contains(r.stderr, "(not_paired)") {
		t.Fatalf("bind before pairing: exit %d %q", r.code, r.stderr)
	}
	fake.AwaitCount(t, "getUpdates", 1) // the bot knows its name
	r := cli("telegram", "pair")
	i := strings.Index(r.stdout, "https://t.me/")
	if r.code != 0 || i < 0 {
		t.Fatalf("pair: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	link, err := url.Parse(strings.TrimSpace(r.stdout[i:]))
	if err != nil {
		t.Fatal(err)
	}
	fake.Push(telegramtest.Text(telegramtest.User{ID: 77, Name: "Ada"}, "/start "+link.Query().Get("start")))
	fake.Await(t, "sendMessage", 0, "welcome", func(c telegramtest.Call) bool { return strings.HasPrefix(c.Fields["text"], "Paired") })
	if r := cli("telegram", "bind", "c1"); r.code != 0 || !strings.Contains(r.stdout, "c1 is bound") {
		t.Fatalf("bind: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = cli("telegram", "status")
	for _, want := range []string{"Bot: @" + telegramtest.BotName + ", polling.", "Paired with @ada (chat 77)", "Bound: c1."} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("status %q lacks %q", r.stdout, want)
		}
	}
	if r := cli("doctor"); !strings.Contains(r.stdout, "paired with @ada, 1 conversations bound") || !strings.Contains(r.stdout, "the bot is @"+telegramtest.BotName) {
		t.Fatalf("doctor's telegram row:\n%s", r.stdout)
	}
	if r := cli("telegram", "unbind", "c1"); r.code != 0 {
		t.Fatalf("unbind: exit %d %q", r.code, r.stderr)
	}
	if r := cli("telegram", "unpair"); r.code != 0 || !strings.Contains(r.stdout, "Unpaired") {
		t.Fatalf("unpair: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := cli("telegram", "pear"); r.code != 2 || !strings.Contains(r.stderr, "not a subcommand") {
		t.Fatalf("a misspelt subcommand: exit %d %q", r.code, r.stderr)
	}
}

func TestDoctorSaysTelegramIsNotConfigured(t *testing.T) {
	r := runCLI(t, nil, "doctor", "--data", t.TempDir())
	if !strings.Contains(r.stdout, "not configured (optional)") {
		t.Fatalf("doctor without a token:\n%s", r.stdout)
	}
}
