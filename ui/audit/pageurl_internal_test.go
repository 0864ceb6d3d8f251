package audit

import (
	"strings"
	"testing"
)

// pageURLCases are addresses of every shape pageURL tells apart: plain
// ones it keeps unparsed, and ones it leaves to stripURL for a query, a
// fragment, user info, an odd host or port, a character a path escapes,
// a broken escape, another scheme or one in capitals.
var pageURLCases = []string{
	"https://shop.example/cart",
	"http://127.0.0.1:8765/library/os.html",
	"http://localhost:8765/",
	"https://shop.example",
	"https://Shop.Example/a%41/b%2fc",
	"https://shop.example/a;b=c/$&+,:~_.-",
	"https://shop.example//twice",
	"https://shop.example/%00",
	"https://shop.example/%zz",
	"https://shop.example/%4",
	"https://shop.example/b c",
	"https://shop.example/é",
	"https://shop.example/(x)*!'",
	"https://shop.example/x?y=1",
	"https://shop.example/x#z",
	"https://user:pw@shop.example/x",
	"https://shop.example:/x",
	"https://shop.example:80a/x",
	"https://[::1]:8080/x",
	"https://a%41.example/x",
	"https:///x",
	"http://",
	"HTTPS://shop.example/x",
	"ftp://shop.example/x",
	"about:blank",
	"not a url/with?query",
	"https://shop.example/" + strings.Repeat("p", 3000),
}

// pageURL writes every address as parsing it would, whether it took the
// plain way or not.
func TestPageURLIsWhatParsingWouldWrite(t *testing.T) {
	plain := 0
	for _, u := range pageURLCases {
		if got, want := pageURL(u), stripURL(u); got != want {
			t.Errorf("pageURL(%q) = %q, parsing writes %q", u, got, want)
		}
		if plainURL(u) {
			plain++
		}
	}
	if plain < 7 || plain == len(pageURLCases) {
		t.Errorf("%d of %d cases were plain: the table no longer covers both ways", plain, len(pageURLCases))
	}
	u := "http://127.0.0.1:8765/library/os.html"
	if n := testing.AllocsPerRun(100, func() { _ = pageURL(u) }); n != 0 {
		t.Errorf("a plain address made %v allocations, want none", n)
	}
}

func FuzzPageURL(f *testing.F) {
	for _, u := range pageURLCases {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u string) {
		if got, want := pageURL(u), stripURL(u); got != want {
			t.Errorf("pageURL(%q) = %q, parsing writes %q", u, got, want)
		}
	})
}
