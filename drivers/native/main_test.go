package native_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// fakeVar makes the test binary act as a helper: it records each request
// in the directory the variable names and answers with that directory's
// <call>.json (or exits 3 when there is none, as a crash).
const fakeVar = "BUDDI_FAKE_NATIVE_HELPER"

// linuxHelper is the real Linux helper, built once when the desktop tests run.
var linuxHelper string

func TestMain(m *testing.M) {
	if dir := os.Getenv(fakeVar); dir != "" {
		os.Exit(fakeHelper(dir))
	}
	code := func() int {
		if runtime.GOOS == "linux" {
			dir, err := os.MkdirTemp("", "buddi-native-driver")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			defer os.RemoveAll(dir)
			linuxHelper = filepath.Join(dir, "buddi-computer-linux")
			if out, err := exec.Command("go", "build", "-o", linuxHelper, "../../native/linux/cmd/buddi-computer-linux").CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "building the Linux helper: %v\n%s", err, out)
				return 1
			}
		}
		return m.Run()
	}()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

func fakeHelper(dir string) int {
	body, _ := io.ReadAll(os.Stdin)
	var req struct {
		Call string `json:"call"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return 4
	}
	n := 0
	for {
		p := filepath.Join(dir, fmt.Sprintf("%s.%d.req", req.Call, n))
		if _, err := os.Stat(p); err != nil {
			// Written whole, then renamed into place: the test reads the
			// requests while this helper may still be writing one.
			if os.WriteFile(p+".part", body, 0o600) == nil {
				_ = os.Rename(p+".part", p)
			}
			break
		}
		n++
	}
	answer, err := os.ReadFile(filepath.Join(dir, req.Call+".json"))
	if err != nil {
		return 3
	}
	if string(answer) == "sleep" {
		time.Sleep(10 * time.Minute)
	}
	_, _ = os.Stdout.Write(answer)
	return 0
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}
