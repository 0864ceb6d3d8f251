// The dashboard's state, as the events socket pushes it. Pages read it and
// subscribe to the parts they show; nothing here polls.
import type { Frame, Install, MovedView, SessionInfo, SiteRequest, Snapshot, StopView, TaskView, TimelineEntry } from "./types";

export type Topic = "hello" | "sessions" | "tasks" | "approvals" | "stop" | "snapshots" | "steps" | "install" | "connection";

type Listener = (topic: Topic, conversation?: string) => void;

export const state = {
  sessions: new Map<string, SessionInfo>(),
  tasks: new Map<string, TaskView>(),
  approvals: new Map<string, SiteRequest>(), // by conversation|site
  snapshots: new Map<string, Snapshot>(),
  lastStep: new Map<string, TimelineEntry>(),
  stop: { stopped: false, settled: true, saved: true, sessions: 0 } as StopView,
  mode: "",
  version: "",
  install: undefined as Install | undefined,
  connected: false,
  ready: false, // a hello arrived at least once
};

const listeners = new Set<Listener>();
const stepListeners = new Set<(e: TimelineEntry) => void>();
const approvalListeners = new Set<(r: SiteRequest, decision: string) => void>();
const taskListeners = new Set<(t: TaskView, at: string) => void>();

const movedListeners = new Set<(m: MovedView) => void>();

// onMoved calls l for every conversation that moved to a new id.
export function onMoved(l: (m: MovedView) => void): () => void {
  movedListeners.add(l);
  return () => movedListeners.delete(l);
}

// onTask calls l for every task change pushed, with when it happened.
export function onTask(l: (t: TaskView, at: string) => void): () => void {
  taskListeners.add(l);
  return () => taskListeners.delete(l);
}

// subscribe calls l on every change until the returned function is called.
export function subscribe(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

// onStep calls l for every step pushed (the conversation view appends it).
export function onStep(l: (e: TimelineEntry) => void): () => void {
  stepListeners.add(l);
  return () => stepListeners.delete(l);
}

// onApproval calls l for every site request and answer pushed.
export function onApproval(l: (r: SiteRequest, decision: string) => void): () => void {
  approvalListeners.add(l);
  return () => approvalListeners.delete(l);
}

function emit(topic: Topic, conversation?: string): void {
  for (const l of [...listeners]) l(topic, conversation);
}

export function setConnected(on: boolean): void {
  state.connected = on;
  emit("connection");
}

export const approvalKey = (r: { conversation: string; site: string }) => r.conversation + "|" + r.site;

// apply takes one pushed frame into the state.
export function apply(f: Frame): void {
  switch (f.type) {
    case "hello": return hello(f);
    case "session": return session(f.session!, !!f.ended);
    case "task":
      state.tasks.set(f.task!.conversation, f.task!);
      for (const l of [...taskListeners]) l(f.task!, f.at ?? new Date().toISOString());
      return emit("tasks", f.task!.conversation);
    case "approval": return approval(f.approval!, f.decision ?? "");
    case "step": return step(f.step!);
    case "stop":
      state.stop = f.stop!;
      return emit("stop");
    case "snapshot":
      state.snapshots.set(f.snapshot!.conversation, f.snapshot!);
      return emit("snapshots", f.snapshot!.conversation);
    case "install":
      state.install = f.install;
      return emit("install");
    case "moved":
      for (const l of [...movedListeners]) l(f.moved!);
      return;
  }
}

function hello(f: Frame): void {
  const h = f.hello!;
  state.sessions = new Map(h.sessions.map((s) => [s.conversation, s]));
  state.tasks = new Map(h.tasks.map((t) => [t.conversation, t]));
  state.approvals = new Map(h.approvals.map((r) => [approvalKey(r), r]));
  state.stop = h.stop;
  state.mode = h.mode;
  state.version = h.version;
  state.install = h.install;
  state.ready = true;
  for (const t of ["hello", "sessions", "tasks", "approvals", "stop", "install"] as Topic[]) emit(t);
}

function session(s: SessionInfo, ended: boolean): void {
  if (ended) state.sessions.delete(s.conversation);
  else state.sessions.set(s.conversation, s);
  emit("sessions", s.conversation);
}

function approval(r: SiteRequest, decision: string): void {
  if (decision) state.approvals.delete(approvalKey(r));
  else state.approvals.set(approvalKey(r), r);
  for (const l of [...approvalListeners]) l(r, decision);
  emit("approvals", r.conversation);
}

function step(e: TimelineEntry): void {
  state.lastStep.set(e.conversation, e);
  for (const l of [...stepListeners]) l(e);
  emit("steps", e.conversation);
}

// pendingCount is how many decisions wait for the owner.
export function pendingCount(): number {
  let n = state.approvals.size;
  for (const t of state.tasks.values()) if (t.state === "pending") n++;
  return n;
}
