// The shapes the API sends (messages/*.go in Go), as the page reads them.

export interface ApiErrorBody { code: string; message: string }

export interface SessionInfo {
  conversation: string; agent: string; state: string; pauseReason?: string; task: string;
  stepsUsed: number; stepsMax: number; expires: string; url?: string; profile: number;
  computer?: boolean; // Use my apps: the owner takes over at the computer itself
  handReason?: string; // why a take-over has no page to drive ("browser-offline": Your browser is not connected)
  driving?: boolean; // taken over, and a dashboard tab drives the page now
  pageAt?: string; // when the page last may have changed: an older picture is not of the page as it is
}

// HandBrowserOffline is a take-over's handReason when Your browser is not
// connected: the agent is paused but there is no page to drive.
export const HandBrowserOffline = "browser-offline";

export interface TaskView {
  conversation: string; agent: string; description: string; state: string; maxSteps: number;
  lifetime: number; created: string; started: string; expires: string; endReason?: string;
}

export interface SiteRequest { conversation: string; agent: string; site: string; url: string; app?: string; appName?: string; at: string }

export interface StopView { stopped: boolean; settled: boolean; saved: boolean; sessions: number }

export interface Snapshot { conversation: string; url: string; at: string; jpeg: string }

export interface Install { running: boolean; lines: string[]; done: boolean; error?: ApiErrorBody; started: string }

export interface TimelineEntry {
  kind: "step" | "approval" | "task"; conversation: string; at: string;
  action?: string; outcome?: string; code?: string; url?: string; stepsUsed?: number; stepsMax?: number;
  tookMs?: number; site?: string; decision?: string; state?: string; text?: string;
}

export interface Timeline {
  conversation: string; agent: string; live: boolean; entries: TimelineEntry[]; snapshot?: Snapshot;
  movedTo?: string; // the conversation moved: its history is under this id
}

export interface Hello {
  sessions: SessionInfo[]; tasks: TaskView[]; approvals: SiteRequest[]; stop: StopView;
  mode: string; version: string; install?: Install;
}

export interface Frame {
  type: "hello" | "session" | "task" | "approval" | "step" | "stop" | "snapshot" | "install" | "moved";
  hello?: Hello; session?: SessionInfo; ended?: boolean; task?: TaskView; approval?: SiteRequest;
  decision?: string; step?: TimelineEntry; stop?: StopView; snapshot?: Snapshot; install?: Install;
  moved?: MovedView; at?: string;
}

// A move: a view of from now shows to.
export interface MovedView { from: string; to: string; agent: string }

export interface TailnetIdentity { login: string; displayName?: string; node: string; nodeId?: string }

export interface DeviceView { id: string; label: string; created: string; expires: string; lastSeen: string; current?: boolean; tailnet?: TailnetIdentity }

export interface TailnetView { on: boolean; url?: string; owners: string[] }

export interface Me { device: DeviceView; csrf: string }

export interface ModeChoice { name: string; label: string; available: boolean; why?: string }

export interface BrowserLaunch { state: "idle" | "starting" | "ready" | "failed"; since: string; problem?: string; tookMs?: number; restarts?: number; load?: number }

export interface BrowserStatus { driver: string; browser?: string; found: boolean; headless: boolean; running: boolean; problem?: string; launch?: BrowserLaunch }

export interface BrowserSettings {
  mode: string; modes: ModeChoice[]; channel: string; channels: string[]; headless: boolean; hasDisplay: boolean;
  siteApproval: string; airGap: boolean; hosts: string[]; previewOrigins: string[];
  locked: Record<string, string>; browser: BrowserStatus; sessionsOpen: number;
  browserApp: string; allowedApps: string[];
}

export interface SiteGrant { site: string; scheme?: string; query?: string; scope: "always" | "once" | "rejected"; conversation?: string }
export interface Login { site: string; cookies: number; storage: boolean }
export interface AgentView { name: string; grants: string[]; autoApprove: boolean; created: string }
export interface AgentAdded { name: string; token: string; grants: string[]; autoApprove: boolean }
export interface DoctorRow { name: string; level: string; text: string }
export interface Permissions { helper: string; platform?: string; ready: boolean; checks: { name: string; ok: boolean; detail: string }[]; text: string }
export interface Opened { conversation: string; outcome: { outcome: string; url?: string; title?: string } }
export interface ConversationView { conversation: string; agent: string; live: boolean; last: string }
export interface TelegramBot { configured: boolean; username?: string; polling: boolean; problem?: string }
export interface TelegramView { paired: boolean; user?: number; chat?: number; name?: string; pairedAt?: string; bound: string[]; bot?: TelegramBot }
export interface TelegramLink { link: string; expires: string }
export interface ExtensionView {
  paired: boolean; extensionId?: string; build?: string; pairedAt?: string; lastSeen?: string; connected: boolean;
  pairing?: string; accepted: string[]; folder?: string;
}
// What the extension answers {type:'buddi.status'} with (extension/worker.js).
export interface ExtensionStatus { ok: boolean; version?: string; paired?: boolean; connected?: boolean; code?: string; address?: string; error?: string }

export interface AuditRecord { at: string; kind: "act" | "control"; agent?: string; conversation?: string; action: string; target?: string; steps?: string[]; code: string; url?: string; detail?: string }
