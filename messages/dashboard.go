package messages

import "time"

// The owner controls the dashboard adds, each answered with *OwnerReply.

// SnapshotOf asks a session for the owner's view of its page: the latest
// snapshot, or a fresh one when it has none yet. Answered with *Snapshot.
type SnapshotOf struct{ Conversation string }

// Target is the conversation the control is for.
func (m *SnapshotOf) Target() string { return m.Conversation }

// GetSettings asks for the browser settings; answered with *BrowserSettings.
type GetSettings struct{}

// ChangeSettings changes the browser settings the fields name (nil keeps
// one). They change only with no session open; answered with the settings
// as they are afterwards.
type ChangeSettings struct {
	Mode         *string `json:"mode,omitempty"`
	Channel      *string `json:"channel,omitempty"`
	Headless     *bool   `json:"headless,omitempty"`
	SiteApproval *string `json:"siteApproval,omitempty"`
	AirGap       *bool   `json:"airGap,omitempty"`
	// Use my apps: the app navigate opens tabs in, and the apps open may
	// bring forward (at most MaxAllowedApps), by id.
	BrowserApp  *string   `json:"browserApp,omitempty"`
	AllowedApps *[]string `json:"allowedApps,omitempty"`
}

// MaxAllowedApps is how many apps Use my apps may allow.
const MaxAllowedApps = 32

// Empty reports whether the change names no setting.
func (m *ChangeSettings) Empty() bool {
	return m.Mode == nil && m.Channel == nil && m.Headless == nil && m.SiteApproval == nil && m.AirGap == nil &&
		m.BrowserApp == nil && m.AllowedApps == nil
}

// OpenBrowser is the owner typing an address into an empty Browser tab: a
// session of the owner's own (agent OwnerAgent), under the same URL rules
// as any agent's, navigated to URL. Answered with *Opened.
type OpenBrowser struct {
	Conversation string
	URL          string
}

// OwnerAgent is the built-in agent whose conversations are the owner's own
// browsing. It has no token: only the owner's controls reach its sessions.
const OwnerAgent = "owner"

// Dashboard devices: a signed-in browser holds a cookie whose hash the
// ledger keeps.

// AddDevice signs a device in.
type AddDevice struct {
	Device    DeviceView
	TokenHash string
}

// FindDevice names the signed-in device whose cookie hashes to TokenHash;
// answered with *DeviceView, or unauthorized / signin_expired.
type FindDevice struct{ TokenHash string }

// ListDevices asks for the signed-in devices.
type ListDevices struct{}

// RemoveDevice signs a device out.
type RemoveDevice struct{ ID string }

// Snapshot is the owner's view of a session's page.
type Snapshot struct {
	Conversation string    `json:"conversation"`
	URL          string    `json:"url"`
	At           time.Time `json:"at"`
	JPEG         []byte    `json:"jpeg"`
}

// ModeChoice is one mode as the settings page offers it.
type ModeChoice struct {
	Name      string `json:"name"`
	Label     string `json:"label"`
	Available bool   `json:"available"`
	Why       string `json:"why,omitempty"` // why it is not available
}

// BrowserSettings is the Computer & browser settings page.
type BrowserSettings struct {
	Mode           string       `json:"mode"`
	Modes          []ModeChoice `json:"modes"`
	Channel        string       `json:"channel"`
	Channels       []string     `json:"channels"`
	Headless       bool         `json:"headless"`
	HasDisplay     bool         `json:"hasDisplay"`
	SiteApproval   string       `json:"siteApproval"`
	AirGap         bool         `json:"airGap"`
	Hosts          []string     `json:"hosts"`
	PreviewOrigins []string     `json:"previewOrigins"`
	// Locked names the settings buddi's environment fixes: setting → variable.
	Locked map[string]string `json:"locked"`
	// BrowserApp and AllowedApps are Use my apps' choices, by id.
	BrowserApp   string        `json:"browserApp"`
	AllowedApps  []string      `json:"allowedApps"`
	Browser      BrowserStatus `json:"browser"`
	SessionsOpen int           `json:"sessionsOpen"`
}

// Opened answers OpenBrowser: the owner's session and how the navigation went.
type Opened struct {
	Conversation string  `json:"conversation"`
	Outcome      Outcome `json:"outcome"`
}

// DeviceView is one signed-in device.
type DeviceView struct {
	ID       string    `json:"id"`
	Label    string    `json:"label"`
	Created  time.Time `json:"created"`
	Expires  time.Time `json:"expires"`
	LastSeen time.Time `json:"lastSeen"`
	Current  bool      `json:"current,omitempty"`
	// Tailnet is who signed this device in over the tailnet, without a
	// link; nil for a device signed in with a link.
	Tailnet *TailnetIdentity `json:"tailnet,omitempty"`
}

// TailnetView answers GET /api/tailnet: where the dashboard is on the
// tailnet and the owner's list of logins signed in there without a link.
type TailnetView struct {
	On     bool     `json:"on"`
	URL    string   `json:"url,omitempty"`
	Owners []string `json:"owners"`
}

// TailnetIdentity is who a request on the tailnet listener comes from, as
// Tailscale's WhoIs says: the login and the node (device) it came from.
type TailnetIdentity struct {
	Login       string `json:"login"`
	DisplayName string `json:"displayName,omitempty"`
	Node        string `json:"node"`
	NodeID      string `json:"nodeId,omitempty"`
}

// DeviceRemoved answers RemoveDevice.
type DeviceRemoved struct {
	ID string `json:"id"`
}

// SignInLink is a one-time link that signs a browser in to the dashboard.
type SignInLink struct {
	URL     string    `json:"url"`
	Expires time.Time `json:"expires"`
}

// Me answers who the dashboard's caller is: its device and the token every
// write must carry.
type Me struct {
	Device DeviceView `json:"device"`
	CSRF   string     `json:"csrf"`
}

// DoctorRow is one line of `buddi doctor`.
type DoctorRow struct {
	Name  string `json:"name"`
	Level string `json:"level"` // OK, WARNING or ERROR
	Text  string `json:"text"`
}

// DeviceList answers ListDevices, newest first.
type DeviceList []DeviceView

// DoctorRows are the doctor's checks, in order.
type DoctorRows []DoctorRow

func (*Snapshot) answer()        {}
func (*BrowserSettings) answer() {}
func (*Opened) answer()          {}
func (*DeviceView) answer()      {}
func (*TailnetView) answer()     {}
func (*DeviceRemoved) answer()   {}
func (*SignInLink) answer()      {}
func (*Me) answer()              {}
func (DeviceList) answer()       {}
func (DoctorRows) answer()       {}
