package config_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/config"
)

func load(t *testing.T, env map[string]string) (config.Config, error) {
	t.Helper()
	c, err := config.FromEnv(func(k string) string { return env[k] })
	if err != nil {
		return c, err
	}
	return c, c.Validate()
}

func TestTelegramSettings(t *testing.T) {
	token := "123456:" + strings.Repeat("A", 35)
	c, err := load(t, map[string]string{"BUDDI_TELEGRAM_TOKEN": " " + token + "\n"})
	if err != nil || c.TelegramToken != token || c.TelegramAPI != config.DefaultTelegramAPI {
		t.Fatalf("token only: %+v %v", c, err)
	}
	c, err = load(t, map[string]string{"BUDDI_TELEGRAM_API": "http://127.0.0.1:8081/"})
	if err != nil || c.TelegramAPI != "http://127.0.0.1:8081" {
		t.Fatalf("a local Bot API: %q %v", c.TelegramAPI, err)
	}
}

func TestBadTelegramSettingsSaySoInOneSentence(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"token without a secret": {"BUDDI_TELEGRAM_TOKEN": "123456"},
		"token with spaces":      {"BUDDI_TELEGRAM_TOKEN": "123456:abc def ghi jkl mno pqr stu"},
		"api without a scheme":   {"BUDDI_TELEGRAM_API": "api.telegram.org"},
		"api with a query":       {"BUDDI_TELEGRAM_API": "https://api.telegram.org/?x=1"},
		"api of another scheme":  {"BUDDI_TELEGRAM_API": "ftp://api.telegram.org"},
	} {
		_, err := load(t, env)
		if !errors.Is(err, config.ErrInvalid) || strings.Count(err.Error(), ". ") > 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}
