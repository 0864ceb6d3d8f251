// Command gen rebuilds the dashboard's dist/ from src/: `go generate ./ui/web`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/buddi-dev/buddi/ui/web/bundle"
)

func main() {
	dir, err := filepath.Abs(".")
	if err == nil {
		var files map[string][]byte
		if files, err = bundle.Build(dir); err == nil {
			err = bundle.Write(dir, files)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
