package doctor

import (
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
)

// extensionRow says whether a "Your browser" extension is paired: which
// one, which build, and when buddi last saw it.
func extensionRow(c config.Config) messages.DoctorRow {
	rec, found, err := extension.Load(c.DataDir)
	switch {
	case err != nil:
		return row("extension", Warning, err.Error()+".")
	case !found:
		return row("extension", OK, "none paired (Your browser is optional; press Connect in the extension to pair one).")
	}
	which := "the unpacked build"
	if rec.ID == extension.StoreID {
		which = "the Chrome Web Store build"
	}
	return row("extension", OK, fmt.Sprintf("paired: %s %s (id %s), paired %s, last seen %s.",
		which, rec.Build, rec.ID, rec.PairedAt.Local().Format(time.DateTime), rec.LastSeen.Local().Format(time.DateTime)))
}
