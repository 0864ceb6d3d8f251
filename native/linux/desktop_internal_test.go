package linux

import (
	"slices"
	"testing"
)

func TestExecArgs(t *testing.T) {
	cases := map[string]struct {
		exec, url string
		want      []string
		used      bool
	}{
		"plain":          {"gnome-calculator", "", []string{"gnome-calculator"}, false},
		"field codes go": {"chromium %U --flag %i %c %k", "", []string{"chromium", "--flag"}, false},
		"url once":       {"firefox %u %U", "https://a/", []string{"firefox", "https://a/"}, true},
		"quoted":         {`"/opt/My App/run" --name "a \"b\" c"`, "", []string{"/opt/My App/run", "--name", `a "b" c`}, false},
		"escapes":        {`prog a\sb "c\sd"`, "", []string{"prog", "a", "b", "c d"}, false},
		"percent":        {"prog 100%%", "", []string{"prog", "100%"}, false},
		"no shell":       {"sh -c 'rm -rf $HOME'", "", []string{"sh", "-c", "'rm", "-rf", "$HOME'"}, false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got, used, err := execArgs(c.exec, c.url)
			if err != nil || !slices.Equal(got, c.want) || used != c.used {
				t.Fatalf("execArgs(%q) = %q, %v, %v; want %q, %v", c.exec, got, used, err, c.want, c.used)
			}
		})
	}
	for _, bad := range []string{"", `"unclosed`, "%f"} {
		if _, _, err := execArgs(bad, ""); err == nil {
			t.Errorf("execArgs(%q) accepted a broken Exec line", bad)
		}
	}
}

func TestParseEntry(t *testing.T) {
	e, ok := parseEntry([]byte("# c\n[Desktop Entry]\nType=Application\nName=Calculator\nName[de]=Rechner\nExec=gnome-calculator\nStartupWMClass=gnome-calculator\n[Desktop Action New]\nName=Other\nExec=other\n"))
	if !ok || e.Name != "Calculator" || e.Exec != "gnome-calculator" || e.StartupWMClass != "gnome-calculator" {
		t.Fatalf("got %+v, %v", e, ok)
	}
	for name, data := range map[string]string{
		"a link":   "[Desktop Entry]\nType=Link\nName=x\nURL=https://a/\n",
		"no exec":  "[Desktop Entry]\nType=Application\nName=x\n",
		"no group": "Type=Application\nName=x\nExec=x\n",
	} {
		if _, ok := parseEntry([]byte(data)); ok {
			t.Errorf("%s was read as an application", name)
		}
	}
}

func TestAppOf(t *testing.T) {
	apps := []entry{
		{ID: "org.gnome.Calculator", Name: "Calculator", Exec: "gnome-calculator"},
		{ID: "firefox-esr", Name: "Firefox ESR", Exec: "/usr/lib/firefox-esr/firefox-esr %u", StartupWMClass: "Firefox-esr"},
		{ID: "vim", Name: "Vim", Exec: "vim %F"},
	}
	cases := map[string]struct {
		w    windowApp
		want string
	}{
		"gtk id":        {windowApp{gtkID: "org.gnome.Calculator"}, "org.gnome.Calculator"},
		"wm class":      {windowApp{class: []string{"Navigator", "Firefox-esr"}}, "firefox-esr"},
		"program":       {windowApp{class: []string{"gnome-calculator", "Gnome-calculator"}}, "org.gnome.Calculator"},
		"executable":    {windowApp{exe: "vim"}, "vim"},
		"nothing known": {windowApp{class: []string{"xterm", "XTerm"}}, ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			e, _ := appOf(c.w, apps)
			if e.ID != c.want {
				t.Fatalf("appOf(%+v) = %q, want %q", c.w, e.ID, c.want)
			}
		})
	}
}

func FuzzExecArgs(f *testing.F) {
	for _, s := range []string{"chromium %U", `"a b" "c\"d"`, `x\s\\y %%`} {
		f.Add(s, "https://example.com/")
	}
	f.Fuzz(func(t *testing.T, line, url string) {
		args, used, err := execArgs(line, url)
		if err != nil {
			return
		}
		if len(args) == 0 || (used && !slices.Contains(args, url)) {
			t.Fatalf("execArgs(%q) = %q, %v", line, args, used)
		}
	})
}
