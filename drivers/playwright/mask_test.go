package playwright_test

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
)

// maskCase is one line of testdata/fields.txt.
type maskCase struct {
	mask  bool
	attrs string // as written in HTML
	field egress.FieldInfo
	value string
}

func readMaskCases(t *testing.T) []maskCase {
	t.Helper()
	f, err := os.Open("testdata/fields.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	attrRE := regexp.MustCompile(`([a-z]+)=("[^"]*"|\S+)`)
	var out []maskCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, value, _ := strings.Cut(line, "|")
		verdict, attrs, _ := strings.Cut(strings.TrimSpace(head), " ")
		c := maskCase{mask: verdict == "mask", attrs: strings.TrimSpace(attrs), value: strings.TrimSpace(value)}
		for _, m := range attrRE.FindAllStringSubmatch(c.attrs, -1) {
			v := strings.Trim(m[2], `"`)
			switch m[1] {
			case "type":
				c.field.Type = v
			case "name":
				c.field.Name = v
			case "id":
				c.field.ID = v
			case "autocomplete":
				c.field.Autocomplete = v
			case "inputmode":
				c.field.InputMode = v
			}
		}
		out = append(out, c)
	}
	return out
}

// Every field the credential rules classify, and every value that looks
// like a key, is masked in what the agent reads: in the field's own line
// and in the name of a label that holds the field. The table's verdicts
// are the Go rules' too, so the page and egress agree line by line.
func TestObservationsMaskCredentialFields(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	cases := readMaskCases(t)
	var body strings.Builder
	for i, c := range cases {
		_, cred := egress.CredentialField(c.field)
		_, secret := egress.LooksLikeSecret(c.value)
		if (cred || secret) != c.mask {
			t.Errorf("line %d (%s): the egress rules say mask=%v, the table %v", i+1, c.attrs, cred || secret, c.mask)
		}
		fmt.Fprintf(&body, `<p><input aria-label="F%d" %s value="%s"></p>`, i, c.attrs, html.EscapeString(c.value))
		fmt.Fprintf(&body, `<p><label>L%d <input %s value="%s"></label> <span role="button">B%d</span></p>`, i, c.attrs, html.EscapeString(c.value), i)
	}
	s.page("/fields", "Fields", body.String())
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/fields")
	obs := observe(t, tabs, drivers.ObserveOptions{FullPage: true})
	for i, c := range cases {
		line := lineWith(obs.Tree, fmt.Sprintf(`"F%d"`, i))
		shown := strings.Contains(line, c.value)
		if shown == c.mask || (c.mask && !strings.Contains(line, "••••")) {
			t.Errorf("line %d (%s %q): the read shows %q", i+1, c.attrs, c.value, line)
		}
	}
	for _, c := range cases {
		if c.mask && strings.Contains(obs.Tree, c.value) {
			t.Errorf("the value %q of %s shows in the read:\n%s", c.value, c.attrs, obs.Tree)
		}
	}
}

// The agent's screenshots mask what observations mask: a card number's box,
// and a security code's in a frame, are one flat colour, while an ordinary
// field beside them still shows text.
func TestScreenshotsMaskCredentialFields(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	style := `position:fixed;left:100px;width:500px;height:80px;font:bold 48px monospace;color:#000;background:#fff;border:0`
	s.page("/card", "Card", `<input aria-label="Card" autocomplete="cc-number" value="4111111111111111" style="`+style+`;top:100px">
<input aria-label="Note" value="WWWWWWWWWWWWWWW" style="`+style+`;top:300px">
<iframe src="/framed" style="position:fixed;left:0;top:450px;width:800px;height:200px;border:0"></iframe>`)
	s.page("/framed", "Framed", `<input aria-label="Framed card" name="cvv" value="941" style="`+style+`;top:50px">`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/card")
	shots := map[string][]byte{"screenshot": mustDo(t, tabs, &drivers.Action{Kind: drivers.Screenshot}).Image,
		"observe": observe(t, tabs, drivers.ObserveOptions{Screenshot: true}).Screenshot}
	for name, raw := range shots {
		img, err := jpeg.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if dark := darkPixels(img, image.Rect(110, 110, 590, 170)); dark != 0 {
			t.Errorf("%s: the card number's box has %d dark pixels: its digits show", name, dark)
		}
		if dark := darkPixels(img, image.Rect(110, 510, 590, 570)); dark != 0 {
			t.Errorf("%s: the framed security code's box has %d dark pixels: its digits show", name, dark)
		}
		if dark := darkPixels(img, image.Rect(110, 310, 590, 370)); dark == 0 {
			t.Errorf("%s: the ordinary field shows no text: everything is masked", name)
		}
	}
}

// darkPixels counts the pixels of r darker than mid-grey.
func darkPixels(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.GrayModel.Convert(img.At(x, y)).(color.Gray) //nolint:forcetypeassert // GrayModel converts to Gray
			if c.Y < 100 {
				n++
			}
		}
	}
	return n
}
