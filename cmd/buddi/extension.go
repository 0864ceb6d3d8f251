package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

func init() {
	register(&command{name: "extension", args: "status | pair CODE | forget",
		summary: "pair the Your browser extension, see it, or forget it", run: extensionCmd})
}

const extensionHelp = `Usage: buddi extension status | pair CODE | forget

Your browser lets agents work in your own Chrome through the buddi extension.
Press Connect in the extension's popup: it shows a six-digit code for five minutes;
pair CODE types it for you (five wrong codes spend it, and the popup shows a new one).
status says which extension is paired, when buddi last saw it and where the unpacked
extension shipped with buddi is, for a developer install; forget deletes the
pairing and closes the extension's connection, which then asks to pair again.`

func extensionCmd(e *env, args []string) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprintln(e.stdout, extensionHelp)
		return exitOK
	}
	rest := args[1:]
	switch args[0] {
	case "status":
		return ownerRun(e, "extension", rest, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
			v, err := o.Extension(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, extensionStatus(v))
			return nil
		})
	case "pair":
		return ownerRun(e, "extension", rest, 1, func(ctx context.Context, f *flags, o *apiclient.Owner) error {
			v, err := o.PairExtension(ctx, f.arg(0))
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, "Paired. "+extensionStatus(v))
			return nil
		})
	case "forget":
		return ownerRun(e, "extension", rest, 0, func(ctx context.Context, _ *flags, o *apiclient.Owner) error {
			if _, err := o.ForgetExtension(ctx); err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, "Forgotten: the extension's connection is closed, and it asks to pair again.")
			return nil
		})
	}
	fmt.Fprintf(e.stderr, "buddi extension: %q is not a subcommand; use status, pair CODE or forget.\n", args[0])
	return exitUsage
}

// extensionStatus says in a line or two what is paired.
func extensionStatus(v messages.ExtensionView) string {
	var lines []string
	if !v.Paired {
		lines = append(lines, "No browser extension is paired.")
	} else {
		online := "not connected now"
		if v.Connected {
			online = "connected"
		}
		lines = append(lines, fmt.Sprintf("Paired with extension %s (build %s), %s; last seen %s.",
			v.ID, v.Build, online, v.LastSeen.Local().Format(time.DateTime)))
	}
	if v.Pairing != "" {
		lines = append(lines, "An extension is showing a pairing code: buddi extension pair CODE.")
	}
	if v.Folder != "" {
		lines = append(lines, "Developer install: in chrome://extensions turn on Developer mode, choose Load unpacked and pick "+v.Folder+".")
	} else {
		lines = append(lines, "The unpacked extension (<install root>/extension) was not found next to this buddi; add it to Chrome from the Chrome Web Store.")
	}
	return strings.Join(lines, "\n")
}
