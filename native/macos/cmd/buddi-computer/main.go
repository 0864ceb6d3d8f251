// Command buddi-computer is buddi's fixed computer-control helper for
// macOS. buddi runs it once per call: it reads one JSON request
// (native/protocol) on standard input, answers with one JSON response on
// standard output and exits. Built for another system it answers every
// call with unsupported_platform.
//
// Build it on any machine with
//
//	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go build -trimpath -ldflags=-buildid= -o buddi-computer ./native/macos/cmd/buddi-computer
//
// and sign it on the Mac with native/macos/sign.sh.
package main

import (
	"os"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/macos"
)

func main() {
	os.Exit(helper.Main(macos.New(), os.Stdin, os.Stdout))
}
