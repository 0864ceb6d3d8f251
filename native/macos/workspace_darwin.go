package macos

import (
	"context"
	"errors"

	"github.com/ebitengine/purego/objc"

	"github.com/buddi-dev/buddi/native/protocol"
)

func bindObjC() error {
	b := open(appKitPath)
	if b.err != nil {
		return b.err
	}
	if objc.GetClass("NSWorkspace") == 0 || objc.GetClass("NSWorkspaceOpenConfiguration") == 0 {
		return errors.New("AppKit's NSWorkspace is missing")
	}
	return nil
}

func sel(name string) objc.SEL { return objc.RegisterName(name) }

func class(name string) objc.ID { return objc.ID(objc.GetClass(name)) }

func workspace() objc.ID { return class("NSWorkspace").Send(sel("sharedWorkspace")) }

// nsString is a Go string as an NSString the caller releases.
func nsString(s string) objc.ID { return objc.ID(newCFString(s)) }

// runningApp describes the running application with pid.
func runningApp(pid int32) (id, name string) {
	app := class("NSRunningApplication").Send(sel("runningApplicationWithProcessIdentifier:"), pid)
	if app == 0 {
		return "", ""
	}
	return goString(uintptr(app.Send(sel("bundleIdentifier")))), goString(uintptr(app.Send(sel("localizedName"))))
}

// appURL is the installed location of the app with bundle id, or 0.
func appURL(bundleID string) objc.ID {
	s := nsString(bundleID)
	defer cfRelease(uintptr(s))
	return workspace().Send(sel("URLForApplicationWithBundleIdentifier:"), s)
}

// installedApp describes the installed app with bundle id.
func installedApp(bundleID string) (protocol.App, bool) {
	url := appURL(bundleID)
	if url == 0 {
		return protocol.App{}, false
	}
	path := url.Send(sel("path"))
	name := class("NSFileManager").Send(sel("defaultManager")).Send(sel("displayNameAtPath:"), path)
	return protocol.App{ID: bundleID, Name: appName(goString(uintptr(name))), Path: goString(uintptr(path))}, true
}

// activateRunning brings a running instance of the app forward, and
// reports whether there was one.
func activateRunning(bundleID string) bool {
	s := nsString(bundleID)
	defer cfRelease(uintptr(s))
	list := class("NSRunningApplication").Send(sel("runningApplicationsWithBundleIdentifier:"), s)
	if list == 0 || objc.Send[int](list, sel("count")) == 0 {
		return false
	}
	const ignoringOtherApps = 1 << 1 // NSApplicationActivateIgnoringOtherApps
	return objc.Send[bool](list.Send(sel("firstObject")), sel("activateWithOptions:"), uint(ignoringOtherApps))
}

// launched waits for a LaunchServices completion handler.
type launched struct {
	block objc.Block
	done  chan error
}

func newLaunched() *launched {
	l := &launched{done: make(chan error, 1)}
	l.block = objc.NewBlock(func(_ objc.Block, _ objc.ID, nserr objc.ID) {
		if nserr != 0 {
			l.done <- errors.New(goString(uintptr(nserr.Send(sel("localizedDescription")))))
			return
		}
		l.done <- nil
	})
	return l
}

// wait returns LaunchServices' refusal as a launch_failed error (nothing
// was opened), or the context's error when no answer came in time (it may
// still open).
func (l *launched) wait(ctx context.Context, what string) error {
	defer l.block.Release()
	select {
	case err := <-l.done:
		if err != nil {
			return protocol.Errorf(protocol.CodeLaunchFailed, "macOS could not open %s; open it yourself, or check that it still starts.", what).WithDetail(err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func openConfiguration() objc.ID {
	cfg := class("NSWorkspaceOpenConfiguration").Send(sel("configuration"))
	cfg.Send(sel("setActivates:"), true)
	return cfg
}

// launch opens the app with bundle id through LaunchServices.
func launch(ctx context.Context, bundleID string) error {
	url := appURL(bundleID)
	if url == 0 {
		return protocol.Errorf(protocol.CodeAppNotFound, "No app with the id %s is installed on this Mac.", bundleID)
	}
	l := newLaunched()
	workspace().Send(sel("openApplicationAtURL:configuration:completionHandler:"), url, openConfiguration(), l.block)
	return l.wait(ctx, bundleID)
}

// openURL opens url in the browser app through LaunchServices, which opens
// an ordinary new tab in its existing profile.
func openURL(ctx context.Context, browserID, raw string) error {
	app := appURL(browserID)
	if app == 0 {
		return protocol.Errorf(protocol.CodeAppNotFound, "The selected browser %s is not installed on this Mac.", browserID)
	}
	s := nsString(raw)
	defer cfRelease(uintptr(s))
	url := class("NSURL").Send(sel("URLWithString:"), s)
	if url == 0 {
		return protocol.Errorf(protocol.CodeBadURL, "macOS does not read %q as a URL; give an https URL.", raw)
	}
	urls := class("NSArray").Send(sel("arrayWithObject:"), url)
	l := newLaunched()
	workspace().Send(sel("openURLs:withApplicationAtURL:configuration:completionHandler:"), urls, app, openConfiguration(), l.block)
	return l.wait(ctx, "the page in "+browserID)
}
