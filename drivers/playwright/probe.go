package playwright

import "context"

// Probe launches the browser cfg describes, opens one tab and closes it
// all again: the check `buddi doctor` runs. Its error carries the one
// sentence a failed launch gives (no browser, missing libraries, no usable
// sandbox and the rest), as browser.status and a failed act say it.
func Probe(ctx context.Context, cfg Config) error {
	d, err := New(cfg)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	tabs, err := d.Open(ctx, "buddi-probe")
	if err != nil {
		return err
	}
	return tabs.Close(ctx)
}

// Message is the one sentence of a driver error, or the error's text.
func Message(err error) string { return message(err) }
