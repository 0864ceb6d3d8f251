package session

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// maxShots is how many screenshots a session keeps as thumbnails.
const maxShots = 8

// shot is a kept screenshot: a thumbnail, not the capture the model saw.
type shot struct {
	At   time.Time `json:"at"`
	JPEG []byte    `json:"jpeg"`
	URL  string    `json:"url"`
}

// observation is the agent's view of one observation.
func (a *Actor) observation(id string, o *drivers.Observation) map[string]any {
	at := o.TakenAt.UTC()
	text := fmt.Sprintf("Observed %s UTC.\n%s", at.Format("15:04:05"), egress.Fence("page", o.Tree))
	r := map[string]any{
		"observation": id, "observedAt": at.Format(time.RFC3339Nano), "text": text,
		"url": o.URL, "title": o.Title, "tab": o.Tab, "tabs": o.Tabs,
		"stepsLeft": a.stepsLeft(),
	}
	if o.Truncated {
		r["truncated"] = true
	}
	if o.Continues != nil {
		r["continues"], r["left"] = o.Continues, o.Continues.Left
	}
	if len(o.Screenshot) > 0 {
		r["screenshot"] = base64.StdEncoding.EncodeToString(o.Screenshot)
	}
	return r
}

// outcome is the agent's view of an action's result.
func (a *Actor) outcome(in *messages.ActInput, o *drivers.Outcome) map[string]any {
	r := map[string]any{"outcome": o.Result, "stepsLeft": a.stepsLeft()}
	if o.URL != "" {
		r["url"] = o.URL
	}
	if o.Title != "" {
		r["title"] = o.Title
	}
	if len(o.Tabs) > 0 {
		r["tabs"] = o.Tabs
	}
	if o.Text != "" {
		r["text"] = egress.Fence(in.Action, o.Text)
	}
	if len(o.Image) > 0 {
		r["screenshot"] = base64.StdEncoding.EncodeToString(o.Image)
		r["width"], r["height"] = o.Width, o.Height
	}
	if drivers.Kind(in.Action).Mutating() || changesPage(in.Action) {
		r["next"] = "Observe again before the next click, fill, select, press, hover, scroll or submit."
	}
	return r
}

// keepShot keeps a screenshot's thumbnail, dropping the oldest past
// maxShots with a log line.
func (a *Actor) keepShot(thumb []byte) {
	if len(thumb) == 0 {
		return
	}
	a.shots = append(a.shots, shot{At: a.cfg.Now().UTC(), JPEG: thumb, URL: a.url})
	if len(a.shots) > maxShots {
		a.cfg.Log.Info("dropped the oldest screenshot", "conversation", a.cfg.Conversation, "kept", maxShots)
		a.shots = a.shots[1:]
	}
}

func (a *Actor) statusResult() *messages.ToolResult {
	st := a.cfg.Driver.Status(context.Background())
	return &messages.ToolResult{Result: map[string]any{
		"session": a.info(), "browser": st, "stepsLeft": a.stepsLeft(),
		"expires": a.task.Expires, "task": a.task.Description, "stopped": false,
	}}
}

// info is this session as the owner sees it.
func (a *Actor) info() messages.SessionInfo {
	return messages.SessionInfo{
		Conversation: a.cfg.Conversation, Agent: a.cfg.Agent, State: a.state(),
		PauseReason: a.rec.PauseReason, Task: a.task.Description,
		StepsUsed: a.rec.StepsUsed, StepsMax: a.task.MaxSteps, Expires: a.task.Expires,
		URL: a.url, Profile: a.cfg.Profile,
	}
}

func (a *Actor) state() string {
	switch {
	case a.ended:
		return "closing"
	case a.rec.TakenOver:
		return "taken_over"
	case a.rec.Paused:
		return "paused"
	case a.inflight != nil:
		return "working"
	}
	return "ready"
}

// summary is the sentence that says what got done when a task ends.
func summary(why string, used, max int, url string) string {
	s := fmt.Sprintf("The task ended because %s, after %d of %d steps", why, used, max)
	if url != "" {
		s += "; the last page was " + url
	}
	return s + "."
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func msDuration(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }
