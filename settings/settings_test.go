package settings_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"testing"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/settings"
)

func ptr[T any](v T) *T { return &v }

func newSettings(t *testing.T, c config.Config, airGap func(bool) error) (*settings.Settings, string) {
	t.Helper()
	dir := t.TempDir()
	c.DataDir = dir
	modes := settings.NewModes(map[string]drivers.Mode{"sim": sim.NewMode(sim.Config{}, 1)}, "sim",
		map[string]string{"computer": "no helper here."})
	return settings.New(settings.Config{Config: c, Modes: modes, AirGap: airGap}), dir
}

// A change the install cannot make is refused before anything happens,
// with the code the dashboard shows.
func TestChangesThatCannotBeMadeAreRefused(t *testing.T) {
	s, _ := newSettings(t, config.Config{Given: map[string]bool{"BUDDI_AIR_GAP": true}}, nil)
	for name, c := range map[string]struct {
		change messages.ChangeSettings
		code   messages.Code
	}{
		"a mode this install lacks":      {messages.ChangeSettings{Mode: ptr("computer")}, messages.CodeNotAvailable},
		"no mode at all":                 {messages.ChangeSettings{Mode: ptr("warp")}, messages.CodeBadInput},
		"a channel nobody ships":         {messages.ChangeSettings{Channel: ptr("netscape")}, messages.CodeBadInput},
		"headed without a display":       {messages.ChangeSettings{Headless: ptr(false)}, messages.CodeLocked},
		"air-gap the environment fixes":  {messages.ChangeSettings{AirGap: ptr(true)}, messages.CodeLocked},
		"an app id that is not one":      {messages.ChangeSettings{BrowserApp: ptr("not an id!")}, messages.CodeBadInput},
		"more apps than Use my apps has": {messages.ChangeSettings{AllowedApps: ptr(make([]string, messages.MaxAllowedApps+1))}, messages.CodeBadInput},
	} {
		t.Run(name, func(t *testing.T) {
			if e := s.Check(&c.change); e == nil || e.Code != c.code {
				t.Fatalf("Check = %v; want %s", e, c.code)
			}
		})
	}
}

// A change is saved to settings.json and read back over the environment's
// configuration, except where the environment fixes a setting.
func TestAChangeIsSavedAndReadBackWhereTheEnvironmentIsSilent(t *testing.T) {
	var turned []bool
	s, dir := newSettings(t, config.Config{SiteApproval: "off"}, func(on bool) error { turned = append(turned, on); return nil })
	if _, err := s.Apply(context.Background(), &messages.ChangeSettings{SiteApproval: ptr("ask"), AirGap: ptr(true),
		AllowedApps: ptr([]string{"org.gnome.Calculator", "org.gnome.Calculator"})}); err != nil {
		t.Fatal(err)
	}
	if len(turned) != 1 || !turned[0] {
		t.Fatalf("air-gap was turned %v; want on once", turned)
	}
	f, err := settings.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(settings.Path(dir)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("settings.json: %v, %v; want it owner-only", st.Mode(), err)
	}
	c := f.Over(config.Config{SiteApproval: "off", Given: map[string]bool{"BUDDI_AIR_GAP": true}})
	if c.SiteApproval != "ask" || c.Egress.AirGap || len(f.AllowedApps) != 1 {
		t.Fatalf("read back: approval %q, air-gap %v (the environment fixes it off), apps %v", c.SiteApproval, c.Egress.AirGap, f.AllowedApps)
	}
}

func TestASettingsFileThatIsNotJSONIsRefusedWithWhatToDo(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/browser", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings.Path(dir), []byte("{mode:"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := settings.Read(dir); err == nil {
		t.Fatal("a broken settings.json was read")
	}
}

// Air-gap wipes the saved logins only when it is turned on, once, and
// records the sites whose logins went; the rules follow it every time.
func TestAirGapWipesOncePerTurningOn(t *testing.T) {
	recorded, wipes := false, 0
	var rules []bool
	var lines []string
	a := settings.AirGap{
		Recorded: func() (bool, error) { return recorded, nil },
		Record: func(on bool, sites []string) error {
			if on && (len(sites) != 1 || sites[0] != "example.com") {
				t.Errorf("recorded sites %v", sites)
			}
			recorded = on
			return nil
		},
		Wipe: func() (playwright.Wiped, error) {
			wipes++
			return playwright.Wiped{Profile: true, Known: true, Sites: []string{"example.com"}}, nil
		},
		Rules: func(on bool) error { rules = append(rules, on); return nil },
		Say:   func(l string) { lines = append(lines, l) },
		Log:   slog.New(slog.DiscardHandler),
	}
	for _, on := range []bool{true, true, false, true} {
		if err := a.Set(on); err != nil {
			t.Fatal(err)
		}
	}
	if wipes != 2 || len(lines) != 2 || len(rules) != 4 || !recorded {
		t.Fatalf("%d wipes, %d lines, rules %v, recorded %v; want 2 wipes and lines, 4 swaps, on", wipes, len(lines), rules, recorded)
	}
	a.Wipe = func() (playwright.Wiped, error) { return playwright.Wiped{}, errors.New("disk gone") }
	recorded = false
	if err := a.Set(true); err == nil || recorded {
		t.Fatalf("a failed wipe gave %v and recorded %v; want an error and nothing recorded", err, recorded)
	}
}
