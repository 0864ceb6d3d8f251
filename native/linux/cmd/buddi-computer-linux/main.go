// Command buddi-computer-linux is buddi's computer-control helper for Linux
// desktops on X11. buddi runs it once per call: it reads one JSON request
// (native/protocol) on standard input, answers with one JSON response on
// standard output and exits.
package main

import (
	"os"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/linux"
)

func main() {
	os.Exit(helper.Main(linux.New(), os.Stdin, os.Stdout))
}
