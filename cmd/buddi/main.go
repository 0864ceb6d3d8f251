// Command buddi is the one binary: the daemon (serve), its health check
// (doctor), the owner's controls, agent and task management, the browser
// check and install, the MCP bridge and the load test.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

type command struct {
	name    string
	args    string
	summary string
	run     func(e *env, args []string) int
}

// env is what every command writes to and reads from.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	getenv         func(string) string
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	os.Exit(run(&env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, getenv: os.Getenv}, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e.stdout)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "buddi: %q is not a command; run `buddi --help` to list them.\n", args[0])
		return exitUsage
	}
	return c.run(e, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "buddi lets AI agents use a real browser while you watch, take over and stop them.")
	fmt.Fprintln(w, "\nUsage: buddi COMMAND [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  %-10s %s\n", n, c.summary)
	}
	fmt.Fprintln(w, "\nRun `buddi COMMAND --help` for a command's flags.")
}

func fail(e *env, cmd string, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(e.stderr, "buddi %s: %s\n", cmd, strings.TrimRight(msg, "\n"))
	return exitFail
}

func usageFail(e *env, cmd, msg string) int {
	fmt.Fprintf(e.stderr, "buddi %s: %s\n", cmd, strings.TrimRight(msg, "\n"))
	return exitUsage
}
