package mcp_test

import (
	"errors"
	"testing"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

func TestNewValidates(t *testing.T) {
	for name, tc := range map[string]struct {
		cfg     buddimcp.Config
		badURL  bool
		noToken bool
	}{
		"ok":          {cfg: buddimcp.Config{BaseURL: "http://127.0.0.1:7777/", Token: "t"}},
		"https":       {cfg: buddimcp.Config{BaseURL: "https://buddi.example", Token: "t"}},
		"empty URL":   {cfg: buddimcp.Config{Token: "t"}, badURL: true},
		"no scheme":   {cfg: buddimcp.Config{BaseURL: "127.0.0.1:7777", Token: "t"}, badURL: true},
		"ftp":         {cfg: buddimcp.Config{BaseURL: "ftp://127.0.0.1", Token: "t"}, badURL: true},
		"no host":     {cfg: buddimcp.Config{BaseURL: "http://", Token: "t"}, badURL: true},
		"no token":    {cfg: buddimcp.Config{BaseURL: "http://127.0.0.1:7777"}, noToken: true},
		"blank token": {cfg: buddimcp.Config{BaseURL: "http://127.0.0.1:7777", Token: "  "}, noToken: true},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := buddimcp.New(tc.cfg)
			var urlErr *buddimcp.BaseURLError
			if got := errors.As(err, &urlErr); got != tc.badURL {
				t.Errorf("BaseURLError = %v (%v), want %v", got, err, tc.badURL)
			}
			if got := errors.Is(err, buddimcp.ErrNoToken); got != tc.noToken {
				t.Errorf("ErrNoToken = %v (%v), want %v", got, err, tc.noToken)
			}
			if (err == nil) != (s != nil) {
				t.Errorf("New = %v, %v", s, err)
			}
		})
	}
}
