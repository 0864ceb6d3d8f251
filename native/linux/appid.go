package linux

import (
	"path/filepath"
	"strings"
)

// windowApp is what a window says about the app it belongs to.
type windowApp struct {
	gtkID string   // _GTK_APPLICATION_ID
	class []string // WM_CLASS: instance, class
	exe   string   // the base name of the process's executable
}

// appOf picks the installed app a window belongs to: the one GTK names,
// else the one whose StartupWMClass is the window's class, else the one
// whose id or program matches the class or the executable.
func appOf(w windowApp, apps []entry) (entry, bool) {
	byID := map[string]entry{}
	for _, e := range apps {
		byID[e.ID] = e
	}
	if e, ok := byID[w.gtkID]; ok && w.gtkID != "" {
		return e, true
	}
	if e, ok := byWMClass(w, apps); ok {
		return e, true
	}
	for _, c := range w.class {
		if e, ok := byID[c]; ok {
			return e, true
		}
	}
	return byProgram(w, apps)
}

// byWMClass is the app whose StartupWMClass is one of the window's classes.
func byWMClass(w windowApp, apps []entry) (entry, bool) {
	for _, e := range apps {
		for _, c := range w.class {
			if e.StartupWMClass != "" && e.StartupWMClass == c {
				return e, true
			}
		}
	}
	return entry{}, false
}

// byProgram is the app whose program or id's last part is the window's
// executable or one of its classes.
func byProgram(w windowApp, apps []entry) (entry, bool) {
	names := append([]string{w.exe}, w.class...)
	for _, e := range apps {
		prog := program(e.Exec)
		for _, c := range names {
			if c != "" && (strings.EqualFold(prog, c) || strings.EqualFold(lastPart(e.ID), c)) {
				return e, true
			}
		}
	}
	return entry{}, false
}

// program is the base name of an Exec line's program.
func program(execLine string) string {
	args, _, err := execArgs(execLine, "")
	if err != nil {
		return ""
	}
	return filepath.Base(args[0])
}

// lastPart is the last dotted part of an id: Calculator of org.gnome.Calculator.
func lastPart(id string) string {
	return id[strings.LastIndexByte(id, '.')+1:]
}
