package playwright

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"sync"
)

// node is the Node.js the driver runs on, found once.
var node struct {
	sync.Mutex
	path string
}

// nodePath returns the Node.js the Playwright driver runs on:
// PLAYWRIGHT_NODEJS_PATH, else node on PATH.
func nodePath() (string, error) {
	node.Lock()
	defer node.Unlock()
	if node.path != "" {
		return node.path, nil
	}
	p := os.Getenv("PLAYWRIGHT_NODEJS_PATH")
	if p == "" || p == selfExe {
		var err error
		if p, err = exec.LookPath("node"); err != nil {
			return "", errors.New("node not found")
		}
	}
	node.path = p
	return p, nil
}

// envMu guards the process environment playwright-go reads when it starts
// a node: PLAYWRIGHT_NODEJS_PATH (and the plan, when there is one) are set
// for that one start and put back after it.
var envMu sync.Mutex

// withNode runs f, which starts node through playwright-go, with
// PLAYWRIGHT_NODEJS_PATH naming the real node (so that playwright-go never
// downloads one), or this binary standing in for it when p is not nil. ctx
// can abandon the wait; f itself runs to its end, holding the environment.
func withNode(ctx context.Context, p *plan, f func() error) error {
	nodeJS, err := nodePath()
	if err != nil {
		return errNoNode
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return do(ctx, func() error {
		envMu.Lock()
		defer envMu.Unlock()
		old, had := os.LookupEnv("PLAYWRIGHT_NODEJS_PATH")
		defer restoreEnv("PLAYWRIGHT_NODEJS_PATH", old, had)
		if p == nil {
			_ = os.Setenv("PLAYWRIGHT_NODEJS_PATH", nodeJS)
			return f()
		}
		defer os.Unsetenv(envPlan)
		_ = os.Setenv("PLAYWRIGHT_NODEJS_PATH", selfExe)
		_ = os.Setenv(envPlan, string(raw))
		return f()
	})
}

func restoreEnv(key, old string, had bool) {
	if had {
		_ = os.Setenv(key, old)
		return
	}
	_ = os.Unsetenv(key)
}
