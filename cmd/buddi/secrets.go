package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
	"github.com/buddi-dev/buddi/ui/audit"
)

func init() {
	register(&command{name: "secret", args: "add NAME --origin URL [--origin URL…] | list | remove NAME",
		summary: "keep your own secrets (a name, the origins each is for, the value read from standard input) that agents fill by name and never see",
		run:     secretCmd})
}

// secretCmd manages the owner's vault in the data directory: being able to
// write there is what makes the caller the owner. The value is read from
// standard input, never from the command line, where other users' ps
// would show it.
func secretCmd(e *env, args []string) int {
	f := newFlags(e, "secret")
	var origins []string
	f.Func("origin", "add: an origin the secret is for, such as https://github.com (repeat for more)", func(v string) error {
		origins = append(origins, v)
		return nil
	})
	if code, ok := f.parse(args, -1); !ok {
		return code
	}
	v := secret.NewVault(f.cfg.DataDir)
	var err error
	switch {
	case f.arg(0) == "add" && len(f.pos) == 2:
		err = addSecret(e, f, v, f.arg(1), origins)
	case f.arg(0) == "list" && len(f.pos) == 1:
		err = listSecrets(e, v)
	case f.arg(0) == "remove" && len(f.pos) == 2:
		if err = removeSecret(f, v, f.arg(1)); err == nil {
			fmt.Fprintf(e.stdout, "Removed %s; agents can no longer fill it.\n", f.arg(1))
		}
	default:
		return usageFail(e, "secret", "expected `add NAME --origin URL`, `list` or `remove NAME`; run `buddi secret --help`.")
	}
	if err != nil {
		return secretFail(e, err)
	}
	return exitOK
}

func addSecret(e *env, f *flags, v *secret.Vault, name string, origins []string) error {
	value, err := readValue(e.stdin)
	if err != nil {
		return err
	}
	o, err := secret.Checked(secret.Owned{Name: name, Origins: origins, Value: value})
	if err != nil {
		return err
	}
	if o2, ok := runningOwner(f); ok {
		if err := ownerSecretCall(o2, "/api/secrets", &messages.OwnerBody{Name: o.Name, Origins: o.Origins, Value: o.Value}); err != nil {
			return err
		}
	} else {
		action := "add_secret"
		if _, err := v.Get(o.Name); err == nil {
			action = "change_secret"
		}
		err := v.Add(o)
		if aerr := auditSecret(f, action, o.Name, o.Origins, err); err == nil && aerr != nil {
			return aerr
		}
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "Kept %s for %s; agents fill it by name with secret_fill and never see it.\n", o.Name, strings.Join(o.Origins, ", "))
	return nil
}

// readValue is the first line of standard input, without its line end.
func readValue(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, secret.MaxValueChars+2)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func listSecrets(e *env, v *secret.Vault) error {
	list, err := v.List()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stdout, "You keep no secrets; add one with `buddi secret add NAME --origin URL` and its value on standard input.")
		return nil
	}
	tb := newTable(e.stdout, "NAME", "ORIGINS")
	for _, s := range list {
		tb.row(s.Name, strings.Join(s.Origins, ", "))
	}
	return tb.flush()
}

// secretFail prints a refusal as one sentence with its code.
func secretFail(e *env, err error) int {
	var me *messages.Error
	if errors.As(err, &me) {
		fmt.Fprintf(e.stderr, "buddi secret: %s (%s)\n", me.Message, me.Code)
		return exitFail
	}
	return fail(e, "secret", "%s", err)
}

func removeSecret(f *flags, v *secret.Vault, name string) error {
	if o, ok := runningOwner(f); ok {
		return ownerSecretCall(o, "/api/secrets/remove", &messages.OwnerBody{Name: name})
	}
	err := v.Remove(name)
	if aerr := auditSecret(f, "remove_secret", name, nil, err); err == nil && aerr != nil {
		return aerr
	}
	return err
}

// runningOwner is the owner API of the buddi running on this data
// directory, when one runs: a change then goes through it, which keeps the
// audit trail's one writer and teaches its URL guard the value at once.
// Only the data directory's own serve.json is trusted, never a default
// address, where another install's buddi may listen.
func runningOwner(f *flags) (*apiclient.Owner, bool) {
	inst, err := instance.ReadInstance(f.cfg.DataDir)
	if err != nil || !running(inst.Addr) {
		return nil, false
	}
	token, err := instance.ReadOwnerToken(f.cfg.DataDir)
	if err != nil {
		return nil, false
	}
	c, err := apiclient.New("http://"+inst.Addr, apiclient.WithUserAgent(messages.CLIAgent+version))
	if err != nil {
		return nil, false
	}
	return c.Owner(token), true
}

func ownerSecretCall(o *apiclient.Owner, path string, body *messages.OwnerBody) error {
	ctx, cancel := ownerContext()
	defer cancel()
	return o.Call(ctx, http.MethodPost, path, body, nil)
}

// auditSecret puts a change made with no buddi running on the trail
// itself: nothing else writes the trail then.
func auditSecret(f *flags, action, name string, origins []string, err error) error {
	l, oerr := audit.Open(f.cfg.DataDir, audit.Options{})
	if oerr != nil {
		return oerr
	}
	r := messages.SecretChanged("cli", action, name, origins, err)
	r.At = time.Now().UTC()
	l.Add(r)
	return l.Close()
}
