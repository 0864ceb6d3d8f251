package playwright

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// How the browser side gets its user and its namespaces. playwright-go
// starts Playwright's driver as PLAYWRIGHT_NODEJS_PATH with cli.js as the
// first argument, and Chromium is the driver's child. When a launch needs
// more than buddi's own user and namespaces, buddi points
// PLAYWRIGHT_NODEJS_PATH at its own executable and passes a plan in the
// environment. The binary, started that way, runs the plan in init, before
// anything else: it gives itself a private view of the file system where
// the account cannot enter a directory on the way to what it needs, joins
// the guard's network namespace, becomes the account, writes the profile's
// preferences as that account, and executes the real node in its place. So
// the driver and Chromium inherit all of it, and nothing else of buddi's
// environment (its tokens among it) reaches them.

// envPlan carries a launch plan to the re-executed binary.
const envPlan = "BUDDI_BROWSER_PLAN"

// selfExe is what PLAYWRIGHT_NODEJS_PATH names during such a launch: the
// running binary, whatever became of its file since.
const selfExe = "/proc/self/exe"

// plan is what the stand-in for node does before it becomes the driver.
type plan struct {
	Parent  int          `json:"parent"`            // the buddi process that wrote the plan
	CLI     string       `json:"cli"`               // cli.js, the first argument the stand-in must see
	Node    string       `json:"node"`              // the Node.js to execute
	Account *planAccount `json:"account,omitempty"` // nil: stay buddi's own user
	Profile string       `json:"profile,omitempty"` // the account's HOME; its preferences are written as it
	NetNS   string       `json:"netns,omitempty"`   // a network namespace to join
	Views   []view       `json:"views,omitempty"`   // directories the account sees through
	// Version is the driver's version, which the stand-in answers the
	// version check playwright-go runs before each start with (the driver
	// directory is named by it and was checked when installed): that
	// check would otherwise start Node.js once more on every launch, 4–6 s
	// on a busy 2-core machine.
	Version string `json:"version,omitempty"`
}

// planAccount is the account the stand-in becomes.
type planAccount struct {
	Name string `json:"name"`
	UID  int    `json:"uid"`
	GID  int    `json:"gid"`
}

// view covers a directory the account cannot enter with an empty tmpfs in
// the browser's own mount namespace, and mounts back into it exactly the
// paths under it the browser side needs (the profile, the driver, node or
// the browser itself); the rest of the directory is not there for it.
type view struct {
	Dir   string  `json:"dir"`
	Binds []bound `json:"binds"`
}

type bound struct {
	Path     string `json:"path"`
	Dir      bool   `json:"dir"`
	Writable bool   `json:"writable,omitempty"`
}

func init() {
	raw, ok := os.LookupEnv(envPlan)
	if !ok {
		return
	}
	// Whatever happens next, no process this one starts inherits the plan.
	_ = os.Unsetenv(envPlan)
	if os.Getenv("PLAYWRIGHT_NODEJS_PATH") == selfExe {
		_ = os.Unsetenv("PLAYWRIGHT_NODEJS_PATH")
	}
	var p plan
	if json.Unmarshal([]byte(raw), &p) != nil || p.Parent != os.Getppid() || len(os.Args) < 2 || os.Args[1] != p.CLI {
		return // a buddi started by one that was launching: not the stand-in
	}
	if len(os.Args) == 3 && os.Args[2] == "--version" && p.Version != "" {
		fmt.Println("Version " + p.Version)
		os.Exit(0)
	}
	err := p.run() // it returns only when it could not execute node
	fmt.Fprintf(os.Stderr, "%s %s\n", shimMark, sentence(err.Error()))
	os.Exit(126)
}

// shimMark starts the one line the stand-in prints when it cannot go on.
const shimMark = "buddi browser launch:"

// run carries the plan out and executes node; it returns only on failure.
func (p *plan) run() error {
	if err := p.enter(); err != nil {
		return err
	}
	env := os.Environ()
	if p.Account != nil {
		env = accountEnv(env, p.Account.Name, p.Profile)
	}
	return p.exec(env)
}

// accountEnv is the environment the browser side gets as the account: what
// the driver, the browser and the display need, and nothing of buddi's
// secrets. HOME is the profile, so everything the browser writes is there.
func accountEnv(env []string, name, home string) []string {
	out := []string{"HOME=" + home, "USER=" + name, "LOGNAME=" + name}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "PATH", k == "LANG", k == "LANGUAGE", k == "TZ", k == "DISPLAY", k == "WAYLAND_DISPLAY", k == "DEBUG":
		case strings.HasPrefix(k, "LC_"), strings.HasPrefix(k, "PLAYWRIGHT_"), strings.HasPrefix(k, "PW_"), strings.HasPrefix(k, "FONTCONFIG_"):
		default:
			continue
		}
		out = append(out, kv)
	}
	return out
}
