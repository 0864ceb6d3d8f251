package main

import (
	"fmt"
	"runtime"
)

func init() {
	register(&command{name: "version", summary: "print the version", run: func(e *env, args []string) int {
		f := newFlags(e, "version")
		if code, ok := f.parse(args, 0); !ok {
			return code
		}
		fmt.Fprintf(e.stdout, "buddi %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return exitOK
	}})
}
