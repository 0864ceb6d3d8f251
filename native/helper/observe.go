package helper

import (
	"context"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

// observe reads the focused window of the selected app: its tree, then its
// picture, then checks focus did not move meanwhile.
func observe(ctx context.Context, p Platform, a *protocol.ObserveArgs) (*protocol.Observation, error) {
	w, info, err := focused(ctx, p, a.App)
	if err != nil {
		return nil, err
	}
	root, err := w.Root(ctx)
	if err != nil {
		return nil, failed(err, protocol.CodeNoTree, "%s exposes no accessibility tree to read; the app may still be starting, so wait a few seconds and observe again.", windowName(info))
	}
	nodes, truncated := walkTree(ctx, root, info.Fingerprint)
	if len(nodes) == 0 {
		return nil, protocol.Errorf(protocol.CodeNoTree, "The page has not answered yet: %s gave no readable elements. Wait a few seconds and observe again.", windowName(info))
	}
	img, scale, err := w.Capture(ctx)
	if err != nil {
		return nil, failed(err, protocol.CodeCaptureFailed, "The window could not be captured; the page has not answered yet, so wait a few seconds and observe again.")
	}
	shot, err := encodeScreenshot(img, scale)
	if err != nil {
		return nil, failed(err, protocol.CodeCaptureFailed, "The window's screenshot could not be encoded within the size limit; make the window smaller and observe again.")
	}
	if err := stillFocused(ctx, p, info); err != nil {
		return nil, err
	}
	return &protocol.Observation{ObservedAt: time.Now().UTC(), Window: info, Nodes: nodes, Truncated: truncated, Screenshot: shot}, nil
}
