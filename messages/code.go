package messages

// Code is a stable machine code shown beside every sentence an agent or the
// owner reads. Codes are part of the API: never rename one.
type Code string

// Codes of the agent and owner API.
const (
	CodeBadInput          Code = "bad_input"           // the request's fields are wrong
	CodeBadRequest        Code = "bad_request"         // the HTTP request itself could not be read
	CodeUnauthorized      Code = "unauthorized"        // no token, or a token buddi does not know
	CodeNotGranted        Code = "not_granted"         // the agent has no grant for the tool
	CodeNotAllowed        Code = "not_allowed"         // another agent's conversation, or refused by policy
	CodeStopped           Code = "stopped"             // the owner stopped all browser access
	CodeNoTask            Code = "no_task"             // the conversation has no running task
	CodeTaskPending       Code = "task_pending"        // the task request waits for the owner
	CodeTaskRefused       Code = "task_refused"        // the owner refused the task
	CodeTaskActive        Code = "task_active"         // the conversation already has a running task
	CodeBudgetShort       Code = "budget_short"        // a script needs more steps than are left
	CodeBudgetSpent       Code = "budget_spent"        // the task's steps are spent
	CodeExpired           Code = "expired"             // the task's time ran out
	CodeBusy              Code = "busy"                // another action of the conversation runs
	CodePaused            Code = "paused"              // a pause rule fired
	CodeTakenOver         Code = "taken_over"          // the owner has the page
	CodeReleased          Code = "released"            // the session ended while the action ran
	CodeRestarted         Code = "restarted"           // an actor restarted while the request ran
	CodeStaleObservation  Code = "stale_observation"   // not the latest, fresh observation
	CodeStaleRef          Code = "stale_ref"           // the element is gone or changed
	CodeNoSession         Code = "no_session"          // the conversation has no running session
	CodeNotPaused         Code = "not_paused"          // resume of a session that is not held
	CodeUnknownAgent      Code = "unknown_agent"       // no agent of that name
	CodeAgentExists       Code = "agent_exists"        // an agent of that name exists
	CodeNoPendingTask     Code = "no_pending_task"     // nothing to accept or refuse
	CodeNoPendingApproval Code = "no_pending_approval" // no site request to answer
	CodeTooManySessions   Code = "too_many_sessions"   // every browser session is in use
	CodeTooManyRequests   Code = "too_many_requests"   // too many site requests wait
	CodeApprovalRequired  Code = "approval_required"   // buddi asked the owner about a site
	CodeNotApproved       Code = "not_approved"        // the owner said no to a site
	CodeStoreFailed       Code = "store_failed"        // the ledger did not take a write
	CodeInternal          Code = "internal"            // a bug; logged
	CodeTimeout           Code = "timeout"             // no answer within the deadline
	CodeNotFound          Code = "not_found"           // no such route
	CodeMethodNotAllowed  Code = "method_not_allowed"  // wrong HTTP method
	CodeUnknownTool       Code = "unknown_tool"        // no such tool
	CodeHostRefused       Code = "host_refused"        // /mcp and the dashboard: a Host header that is not buddi's
	CodeTailnetRefused    Code = "tailnet_refused"     // the tailnet listener: a login not on the owner's list, or none
	CodeOriginRefused     Code = "origin_refused"      // /mcp and the dashboard: a browser page's Origin that is not buddi's
	CodeNoTelegram        Code = "telegram_off"        // no Telegram bot is configured, or it has not reached Telegram yet
	CodeNotPaired         Code = "not_paired"          // no Telegram chat is paired
	CodeTooManyAttempts   Code = "too_many_attempts"   // too many failed sign-ins or pairing codes; wait
	CodeTooLarge          Code = "answer_too_large"    // an answer past MaxAnswerBytes was not sent
	CodeSignInExpired     Code = "signin_expired"      // the dashboard's sign-in or link has expired
	CodeBadCSRF           Code = "csrf_refused"        // a dashboard write without the page's CSRF token
	CodeSessionsOpen      Code = "sessions_open"       // settings change only with no session open
	CodeNotAvailable      Code = "not_available"       // a mode or capability this install does not have
	CodeLocked            Code = "locked"              // a setting the environment fixes
	CodeBusySettings      Code = "settings_changing"   // the settings are being applied; try again
	CodeHandBusy          Code = "hand_busy"           // another tab is driving the taken-over page
	CodeNoHand            Code = "no_hand"             // the page has no live hand: take over first
	CodeHandEnded         Code = "hand_ended"          // the hand ended; take over again to drive
	CodeHandMoved         Code = "hand_moved"          // the owner drives the page from another tab now
	CodeWrongCode         Code = "wrong_code"          // a pairing code of the extension that is not the one it shows
	CodeNoCode            Code = "no_code"             // no extension is showing a pairing code
	CodeBrowserOffline    Code = "browser_offline"     // the paired extension is not connected
	CodeExtRefused        Code = "extension_refused"   // the extension's socket or handshake was refused
	CodeBadMessage        Code = "bad_message"         // a malformed or oversized message on the extension's socket
	CodeClusterDown       Code = "cluster_unreachable" // a cluster member cannot reach etcd, so it refuses new work
	CodeMCPSessionsFull   Code = "mcp_sessions_full"   // the agent, or the install, holds as many MCP sessions as buddi keeps
	CodeMCPTooFast        Code = "mcp_too_fast"        // the agent opens MCP sessions faster than buddi allows
	CodeMoved             Code = "moved"               // the conversation moved to a new id: call with that one
	CodeInUse             Code = "conversation_in_use" // a move onto an id that already has a task or session

	// Drivers' codes.
	CodeNoBrowser        Code = "no_browser"        // nothing to launch, or the launch failed
	CodeNotAnswering     Code = "not_answering"     // observation or capture failed: page busy
	CodeTargetMiss       Code = "target_not_found"  // nothing answered at the element
	CodeTabGone          Code = "tab_gone"          // the tab the agent was reading closed
	CodeTooManyTabs      Code = "too_many_tabs"     // the conversation holds as many tabs as it may
	CodePartial          Code = "input_uncertain"   // input may have half happened
	CodeNavFailed        Code = "navigation_failed" // the page did not load
	CodeInterrupted      Code = "interrupted"       // the call was interrupted
	CodeBadURL           Code = "bad_url"           // not a URL a browser would read the same way
	CodeScheme           Code = "scheme_not_allowed"
	CodeHostNotListed    Code = "host_not_allowed"  // outside BUDDI_BROWSER_HOSTS
	CodeNeverAutomate    Code = "never_automate"    // on the never-automate list
	CodePrivate          Code = "private_address"   // loopback, private, link-local and the like
	CodePort             Code = "port_not_allowed"  // not 80 or 443
	CodeAirGap           Code = "air_gap"           // air-gap is on
	CodeUnapproved       Code = "unapproved_site"   // a page link to a site not approved
	CodeCredential       Code = "credential_field"  // typing into a password or card field
	CodeSecretValue      Code = "secret_value"      // typing something like a key or token
	CodeSecretInURL      Code = "secret_in_url"     // a URL whose path, query or fragment carries a secret
	CodeUnknownSecret    Code = "unknown_secret"    // secret_fill names no secret of the owner's
	CodeSecretOrigin     Code = "secret_origin"     // secret_fill into a page of an origin the secret is not for
	CodeBuddiAddress     Code = "buddi_address"     // a URL that is buddi's own address
	CodeAmbiguous        Code = "ambiguous_target"  // a semantic target matches more than one element
	CodeNoApps           Code = "no_apps"           // open in a mode without apps
	CodeAppNotFound      Code = "app_not_found"     // no installed app has that id or name
	CodeAppAmbiguous     Code = "app_ambiguous"     // several installed apps have that name
	CodeUnsupported      Code = "not_supported"     // the install's mode cannot do this
	CodeBrowserStarting  Code = "browser_starting"  // the browser is still starting: try again when the sentence says
	CodeBrowserRestarted Code = "browser_restarted" // the browser died and was started again: observe again
	CodePageUnresponsive Code = "page_unresponsive" // buddi closed a page that stopped answering: observe again

	// Codes the API client finds itself.
	CodeUnreachable Code = "daemon_unreachable" // no buddi answered
	CodeCancelled   Code = "cancelled"          // the caller gave up
	CodeBadAnswer   Code = "bad_answer"         // something answered that is not buddi's API
)
