package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/extension"
)

func TestExtensionRowSaysWhichIsPaired(t *testing.T) {
	c := config.Config{DataDir: t.TempDir()}
	if r := extensionRow(c); r.Level != OK || !strings.Contains(r.Text, "none paired") {
		t.Fatalf("no pairing: %+v", r)
	}
	rec := extension.Record{TokenHash: strings.Repeat("0", 64), ID: extension.ID(), Build: "0.1.0.7",
		PairedAt: time.Now(), LastSeen: time.Now()}
	if err := extension.Save(c.DataDir, rec); err != nil {
		t.Fatal(err)
	}
	r := extensionRow(c)
	if r.Level != OK || !strings.Contains(r.Text, extension.ID()) || !strings.Contains(r.Text, "0.1.0.7") || !strings.Contains(r.Text, "last seen") {
		t.Fatalf("paired: %+v", r)
	}
}
