package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/buddi-dev/buddi/config"
)

// flags is a command's flag set with the shared --data and --addr.
type flags struct {
	*flag.FlagSet
	cmd     *command
	e       *env
	cfg     config.Config
	addrSet bool
	envErr  error
	pos     []string
}

// arg returns the i-th positional argument, or "".
func (f *flags) arg(i int) string {
	if i < len(f.pos) {
		return f.pos[i]
	}
	return ""
}

// parseAll parses flags anywhere among the positional arguments.
func (f *flags) parseAll(args []string) error {
	rest := args
	for {
		if err := f.Parse(rest); err != nil {
			return err
		}
		rest = f.Args()
		if len(rest) == 0 {
			return nil
		}
		f.pos = append(f.pos, rest[0])
		rest = rest[1:]
	}
}

// newFlags builds a flag set; a bad environment value is reported by parse.
func newFlags(e *env, name string) *flags {
	c := commands[name]
	cfg, err := config.FromEnv(e.getenv)
	fs := flag.NewFlagSet("buddi "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &flags{FlagSet: fs, cmd: c, e: e, cfg: cfg, envErr: err}
	fs.StringVar(&f.cfg.DataDir, "data", cfg.DataDir, "data directory (env BUDDI_DATA_DIR)")
	fs.Func("addr", "address of the HTTP surface, host:port (env BUDDI_ADDR; default "+config.DefaultAddr+")", func(v string) error {
		f.cfg.Addr, f.addrSet = v, true
		return nil
	})
	return f
}

// parse parses args; ok is false when the command should exit with code.
func (f *flags) parse(args []string, positional int) (code int, ok bool) {
	err := f.parseAll(args)
	if errors.Is(err, flag.ErrHelp) {
		f.help()
		return exitOK, false
	}
	if err != nil {
		fmt.Fprintf(f.e.stderr, "buddi %s: %s; run `buddi %s --help`.\n", f.cmd.name, err, f.cmd.name)
		return exitUsage, false
	}
	if f.envErr != nil {
		fmt.Fprintf(f.e.stderr, "buddi %s: %s\n", f.cmd.name, strings.TrimPrefix(f.envErr.Error(), config.ErrInvalid.Error()+": "))
		return exitUsage, false
	}
	if positional >= 0 && len(f.pos) != positional {
		fmt.Fprintf(f.e.stderr, "buddi %s: expected %s; run `buddi %s --help`.\n", f.cmd.name, argsWanted(f.cmd, positional), f.cmd.name)
		return exitUsage, false
	}
	if err := f.cfg.Validate(); err != nil {
		fmt.Fprintf(f.e.stderr, "buddi %s: %s\n", f.cmd.name, strings.TrimPrefix(err.Error(), config.ErrInvalid.Error()+": "))
		return exitUsage, false
	}
	return 0, true
}

func argsWanted(c *command, n int) string {
	if n == 0 {
		return "no arguments"
	}
	return c.args
}

func (f *flags) help() {
	w := f.e.stdout
	fmt.Fprintf(w, "Usage: buddi %s [flags] %s\n\n%s\n\nFlags:\n", f.cmd.name, f.cmd.args, f.cmd.summary)
	f.SetOutput(w)
	f.PrintDefaults()
	f.SetOutput(io.Discard)
}
