package extension_test

import (
	"bytes"
	"context"
	"fmt"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
)

// TestFramedFieldsAreMaskedInYourBrowsersScreenshots: a password field in
// a cross-origin frame, which Chrome runs in a process of its own, is
// covered in an observation's screenshot where it is on the page, and the
// frame around it is not.
func TestFramedFieldsAreMaskedInYourBrowsersScreenshots(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/outer", func(w http.ResponseWriter, r *http.Request) {
		far := "http://" + strings.Replace(r.Host, "127.0.0.1", "localhost", 1)
		fmt.Fprintf(w, `<!doctype html><title>Outer</title><body style="margin:0;background:#fff">
<iframe src="%s/inner" title="Sign in" style="position:absolute;left:100px;top:100px;width:300px;height:100px;border:0"></iframe>
<script>document.title = String(innerWidth)</script>`, far)
	})
	mux.HandleFunc("/inner", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Inner</title><body style="margin:0;background:#d00000">
<input type="password" aria-label="Secret" value="hunter2hunter2" style="position:absolute;left:20px;top:20px;width:200px;height:40px;border:0;background:#fff">`)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	_, d, _ := pairedChrome(t)
	tabs := drivertest.Open(t, extdriver.New(extdriver.Config{Caller: callerOf(d)}), "masks")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/outer"})
	obs, err := tabs.Observe(context.Background(), drivers.ObserveOptions{Screenshot: true})
	if err != nil {
		t.Fatal(err)
	}
	if tg := drivertest.Target(t, obs, "textbox", "Secret"); tg.Frame == 0 {
		t.Fatalf("the framed field was read as the page's: %+v", tg)
	}
	img, err := jpeg.Decode(bytes.NewReader(obs.Screenshot))
	if err != nil {
		t.Fatal(err)
	}
	width, err := strconv.Atoi(obs.Title) // the page's viewport, as it says in its title
	if err != nil || width <= 0 {
		t.Fatalf("the page's title %q is not its width", obs.Title)
	}
	k := float64(img.Bounds().Dx()) / float64(width)
	at := func(x, y float64) (r, g, b uint32) {
		r, g, b, _ = img.At(int(x*k), int(y*k)).RGBA()
		return r >> 8, g >> 8, b >> 8
	}
	near := func(v, want uint32) bool { return v+24 >= want && v <= want+24 }
	// The field: page 120..320 × 120..160; its middle is under the mask.
	if r, g, b := at(220, 140); !near(r, 0xc8) || !near(g, 0xc8) || !near(b, 0xc8) {
		t.Errorf("the framed password field shows (%d, %d, %d) where it is; want the mask's grey", r, g, b)
	}
	// The frame's red around it is not covered.
	if r, g, b := at(110, 180); !near(r, 0xd0) || g > 40 || b > 40 {
		t.Errorf("the frame around the field shows (%d, %d, %d); want its red", r, g, b)
	}
}
