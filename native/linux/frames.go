package linux

import (
	"context"

	"github.com/buddi-dev/buddi/native/protocol"
)

// findTree finds the accessible frame of the window with this process and
// title: the app on the accessibility bus whose connection belongs to pid,
// then its active top-level, else the one with the title, else its only
// visible one.
func (p *Platform) findTree(ctx context.Context, d *display, pid int, title string) (*tree, error) {
	if pid <= 0 {
		return nil, protocol.Errorf(protocol.CodeNoTree, "The focused window does not say which process owns it (_NET_WM_PID), so its accessibility tree cannot be found.")
	}
	b, err := p.bus(ctx)
	if err != nil {
		return nil, err
	}
	apps, err := b.children(ctx, ref{registryName, rootPath})
	if err != nil {
		return nil, noBus(err)
	}
	for _, app := range apps {
		if id, err := b.pid(ctx, app.Name); err != nil || id != pid {
			continue
		}
		frame, ok := pickFrame(ctx, b, app, title)
		if !ok {
			continue
		}
		t := &tree{bus: b, d: d, app: app.Name, root: frame}
		t.origin, _ = b.extents(ctx, frame)
		return t, nil
	}
	return nil, protocol.Errorf(protocol.CodeNoTree, "The focused window's app is not on the accessibility bus; it may still be starting, or have accessibility off: wait a few seconds and observe again.")
}

func pickFrame(ctx context.Context, b *bus, app ref, title string) (ref, bool) {
	frames, err := b.children(ctx, app)
	if err != nil {
		return ref{}, false
	}
	var visible, titled []ref
	for _, f := range frames {
		st, err := b.state(ctx, f)
		if err != nil || !st.visible() {
			continue
		}
		if st.has(stateActive) {
			return f, true
		}
		visible = append(visible, f)
		if name, err := b.name(ctx, f); err == nil && name == title && title != "" {
			titled = append(titled, f)
		}
	}
	switch {
	case len(titled) == 1:
		return titled[0], true
	case len(visible) == 1:
		return visible[0], true
	}
	return ref{}, false
}
