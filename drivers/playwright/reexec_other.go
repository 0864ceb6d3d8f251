//go:build !linux

package playwright

import "errors"

var errNoNamespaces = errors.New("running the browser as another user is supported on Linux only")

func (p *plan) enter() error { return errNoNamespaces }

func (p *plan) exec([]string) error { return errNoNamespaces }

func mountNamespaces() error { return errNoNamespaces }
