package protocol

import "context"

// Observe asks for the focused window of app.
func (c *Client) Observe(ctx context.Context, app string) (*Observation, error) {
	r, err := c.Do(ctx, &Request{Call: CallObserve, Observe: &ObserveArgs{App: app}})
	if err != nil {
		return nil, err
	}
	return r.Observation, nil
}

// Click clicks an element or a pixel.
func (c *Client) Click(ctx context.Context, a ClickArgs) (*InputResult, error) {
	return c.input(ctx, &Request{Call: CallClick, Click: &a})
}

// Fill types a value into an element.
func (c *Client) Fill(ctx context.Context, a FillArgs) (*InputResult, error) {
	return c.input(ctx, &Request{Call: CallFill, Fill: &a})
}

// Press presses one allowed key.
func (c *Client) Press(ctx context.Context, a PressArgs) (*InputResult, error) {
	return c.input(ctx, &Request{Call: CallPress, Press: &a})
}

func (c *Client) input(ctx context.Context, req *Request) (*InputResult, error) {
	r, err := c.Do(ctx, req)
	if err != nil {
		return nil, err
	}
	return r.Input, nil
}

// Open brings an app forward by id or exact name.
func (c *Client) Open(ctx context.Context, a OpenArgs) (*Opened, error) {
	r, err := c.Do(ctx, &Request{Call: CallOpen, Open: &a})
	if err != nil {
		return nil, err
	}
	return r.Opened, nil
}

// Find names the one installed app called name (exactly, in any case)
// within NameSearchTimeout; it starts nothing. None or several is refused
// with CodeAppNotFound or CodeAppAmbiguous (with the candidates).
func (c *Client) Find(ctx context.Context, name string) (*App, error) {
	r, err := c.Do(ctx, &Request{Call: CallFind, Find: &FindArgs{Name: name}})
	if err != nil {
		return nil, err
	}
	return r.Found, nil
}

// Navigate opens url in a new tab of the browser app.
func (c *Client) Navigate(ctx context.Context, browser, url string) (*Navigated, error) {
	r, err := c.Do(ctx, &Request{Call: CallNavigate, Navigate: &NavigateArgs{Browser: browser, URL: url}})
	if err != nil {
		return nil, err
	}
	return r.Navigated, nil
}

// Probe reports what the mode needs and has; it never prompts.
func (c *Client) Probe(ctx context.Context) (*Permissions, error) {
	return c.permissions(ctx, CallProbe)
}

// RequestPermissions asks the system for what is missing.
func (c *Client) RequestPermissions(ctx context.Context) (*Permissions, error) {
	return c.permissions(ctx, CallRequestPermissions)
}

func (c *Client) permissions(ctx context.Context, call Call) (*Permissions, error) {
	r, err := c.Do(ctx, &Request{Call: call})
	if err != nil {
		return nil, err
	}
	return r.Permissions, nil
}
