package protocol_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// fakeHelperVar makes the test binary act as a helper that misbehaves in
// the named way, so the Client is tested against real processes.
const fakeHelperVar = "BUDDI_FAKE_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeHelperVar); mode != "" {
		os.Exit(fakeHelper(mode))
	}
	goleak.VerifyTestMain(m)
}

// fakeHelper reads the request and answers as mode says.
func fakeHelper(mode string) int {
	_, _ = io.ReadAll(os.Stdin)
	switch mode {
	case "probe":
		fmt.Print(`{"v":1,"permissions":{"platform":"linux-x11","ready":true,"checks":[{"name":"display","ok":true,"detail":"The display answers."}]}}`)
	case "refuse":
		fmt.Print(`{"v":1,"error":{"code":"focus_changed","message":"Focus moved, so nothing was sent; observe again."}}`)
	case "malformed":
		fmt.Print(`{"v":1,"permissions":{`)
	case "empty":
	case "oversized":
		chunk := strings.Repeat("x", 1<<20)
		for range 64 {
			if _, err := os.Stdout.WriteString(chunk); err != nil {
				return 0
			}
		}
	case "crash":
		fmt.Fprintln(os.Stderr, "fake helper: segmentation fault in the accessibility bridge")
		fmt.Print(`{"v":1,"permissions":`)
		return 2
	case "late":
		// A grandchild in the same process group, to show the whole group dies.
		child := exec.Command("sleep", "600")
		if err := child.Start(); err == nil {
			_ = os.WriteFile(os.Getenv("BUDDI_FAKE_PIDFILE"), []byte(strconv.Itoa(child.Process.Pid)), 0o600)
		}
		time.Sleep(10 * time.Minute)
	}
	return 0
}

// gone waits until pid has exited (or is a zombie waiting to be reaped).
func gone(t testing.TB, pid int) bool {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); err != nil {
			return true
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return true
		}
		if s := string(stat); strings.Contains(s[strings.LastIndexByte(s, ')'):], ") Z") {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
