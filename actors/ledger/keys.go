package ledger

// Keys are versioned and prefixed so a later layout can live beside this one.
const version = "v1/"

// Key prefixes. A record's key is its prefix followed by its identity.
const (
	prefixStop     = version + "stop"
	prefixOwner    = version + "owner"
	prefixAgent    = version + "agent/"
	prefixTask     = version + "task/"
	prefixSession  = version + "session/"
	prefixApproval = version + "approval/"
	prefixSite     = version + "site/"
	prefixRefusal  = version + "refusal/"
	prefixAirGap   = version + "airgap"
	prefixSteps    = version + "steps/"
	prefixDevice   = version + "device/"
	prefixTelegram = version + "telegram/chat"
	prefixBound    = version + "telegram/bound/"
	prefixDesktop  = version + "desktop"
	prefixApp      = version + "app/"
	prefixMoved    = version + "moved/"
)

// MovedKey names the note that a conversation moved to a new id.
func MovedKey(conv string) []byte { return []byte(prefixMoved + conv) }

// AppKey names the owner's answer about one app in one conversation.
func AppKey(conv, app string) []byte { return []byte(prefixApp + conv + "/" + app) }

// DesktopKey is where the desktop lock of Use my apps lives.
func DesktopKey() []byte { return []byte(prefixDesktop) }

// DeviceKey names one signed-in dashboard device.
func DeviceKey(id string) []byte { return []byte(prefixDevice + id) }

// StepsKey names one conversation's step counter: a tiny record rewritten at
// every step, apart from the session record so a step rewrites a few bytes.
func StepsKey(conv string) []byte { return []byte(prefixSteps + conv) }

// TelegramKey is where the owner's paired Telegram chat lives.
func TelegramKey() []byte { return []byte(prefixTelegram) }

// BoundKey names one conversation bound to the paired chat.
func BoundKey(conv string) []byte { return []byte(prefixBound + conv) }

// AirGapKey is where the last seen air-gap setting lives.
func AirGapKey() []byte { return []byte(prefixAirGap) }

// StopKey is where the global Stop lives.
func StopKey() []byte { return []byte(prefixStop) }

// OwnerKey is where the owner's token hash lives.
func OwnerKey() []byte { return []byte(prefixOwner) }

// AgentKey names one agent.
func AgentKey(name string) []byte { return []byte(prefixAgent + name) }

// TaskKey names one conversation's task.
func TaskKey(conv string) []byte { return []byte(prefixTask + conv) }

// SessionKey names one conversation's session.
func SessionKey(conv string) []byte { return []byte(prefixSession + conv) }

// ApprovalKey names an approval in one conversation for one app or site.
func ApprovalKey(conv, subject string) []byte {
	return []byte(prefixApproval + conv + "/" + subject)
}

// SiteKey names a persisted site approval of a project.
func SiteKey(project, site string) []byte {
	return []byte(prefixSite + project + "/" + site)
}

// RefusalKey names one entry of the air-gap refusal ledger.
func RefusalKey(id string) []byte { return []byte(prefixRefusal + id) }

// upperBound returns the smallest key greater than every key with prefix p.
func upperBound(p string) []byte {
	b := []byte(p)
	b[len(b)-1]++
	return b
}

// SitePrefix is where one project's always-approved sites live.
func SitePrefix(project string) string { return prefixSite + project + "/" }
