package macos_test

import (
	"bytes"
	"debug/macho"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/macos"
	"github.com/buddi-dev/buddi/native/protocol"
)

const helperPkg = "github.com/buddi-dev/buddi/native/macos/cmd/buddi-computer"

// buildForMac cross-compiles the helper the way the README says to.
func buildForMac(t *testing.T, arch, out string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-buildid=", "-o", out, helperPkg)
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the macOS helper for %s: %v\n%s", arch, err, b)
	}
}

// TestHelperBuildsForMac builds the helper for both Mac architectures
// without cgo, checks each is a Mach-O executable of that architecture that
// links the system library, and that building it again gives the same
// bytes: what keeps its ad-hoc signature, and so the owner's grants, the
// same across rebuilds.
func TestHelperBuildsForMac(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiling takes a while; run without -short")
	}
	cpus := map[string]macho.Cpu{"arm64": macho.CpuArm64, "amd64": macho.CpuAmd64}
	for arch, cpu := range cpus {
		t.Run(arch, func(t *testing.T) {
			dir := t.TempDir()
			first, second := filepath.Join(dir, "a", "buddi-computer"), filepath.Join(dir, "b", "buddi-computer")
			buildForMac(t, arch, first)
			buildForMac(t, arch, second)
			f, err := macho.Open(first)
			if err != nil {
				t.Fatalf("not a Mach-O file: %v", err)
			}
			defer f.Close()
			if f.Cpu != cpu || f.Type != macho.TypeExec {
				t.Fatalf("a %v %v, want an %v executable", f.Cpu, f.Type, cpu)
			}
			libs, _ := f.ImportedLibraries()
			if !slices.Contains(libs, "/usr/lib/libSystem.B.dylib") {
				t.Fatalf("it links %v, not the system library", libs)
			}
			a, _ := os.ReadFile(first)
			b, _ := os.ReadFile(second)
			if !bytes.Equal(a, b) {
				t.Fatal("two builds from the same source differ, so a rebuild would lose the owner's grants")
			}
		})
	}
}

// TestDarwinFilesVet type-checks and vets the files that only build for
// macOS, which no test here can run.
func TestDarwinFilesVet(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-vetting takes a while; run without -short")
	}
	for _, arch := range []string{"arm64", "amd64"} {
		cmd := exec.Command("go", "vet", "./...")
		cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go vet for darwin/%s: %v\n%s", arch, err, b)
		}
	}
}

// TestElsewhereTheHelperSaysWhereItRuns runs the helper's shared request
// handling on this system: it answers every call, and refuses to act.
func TestElsewhereTheHelperSaysWhereItRuns(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("on a Mac the helper acts")
	}
	serve := func(req string, c protocol.Call) *protocol.Response {
		var out bytes.Buffer
		helper.Main(macos.New(), strings.NewReader(req), &out)
		r, err := protocol.DecodeResponse(c, out.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", out.Bytes(), err)
		}
		return r
	}
	r := serve(`{"v":1,"call":"probe","timeout_ms":1000}`, protocol.CallProbe)
	if r.Permissions == nil || r.Permissions.Ready || r.Permissions.Platform != "macos" {
		t.Fatalf("probe: %+v", r.Permissions)
	}
	r = serve(`{"v":1,"call":"observe","timeout_ms":1000,"observe":{"app":"com.apple.calculator"}}`, protocol.CallObserve)
	if r.Error == nil || r.Error.Code != protocol.CodeUnsupportedPlatform {
		t.Fatalf("observe: %+v", r.Error)
	}
	r = serve(`{"v":1,"call":"open","timeout_ms":1000,"open":{"name":"Calculator"}}`, protocol.CallOpen)
	if r.Error == nil || r.Error.Code != protocol.CodeUnsupportedPlatform {
		t.Fatalf("open: %+v", r.Error)
	}
}
