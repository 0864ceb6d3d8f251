// The conversation view (#/chat/<agent>/<conversation>): the timeline of
// the agent's actions beside its canvas. A run of browser calls folds into
// one row that opens the Browser tab; a failed call and a call waiting on
// the owner's approval are never folded.
import { get } from "../api";
import { browserTab } from "../canvas/browserTab";
import { canvas } from "../canvas/canvas";
import { clock, h } from "../dom";
import { approvalCard } from "../parts/approval";
import { followSwitch } from "../parts/follow";
import { dropQuery, href, type Page } from "../router";
import { approvalKey, onApproval, onMoved, onStep, onTask, state, subscribe } from "../store";
import type { SiteRequest, Timeline, TimelineEntry } from "../types";

export const chatPage: Page = (root, route) => {
  const [agent = "", conv = ""] = route.params;
  let history: Timeline | null = null;
  const entries: TimelineEntry[] = [];
  const keys = new Set<string>();
  const list = h("ol", { class: "timeline", "aria-label": "What happened" });
  const tab = browserTab(conv, agent, () => history?.snapshot ?? state.snapshots.get(conv));
  const cv = canvas(conv, tab);
  const toggle: HTMLButtonElement = h("button", { type: "button", class: "canvas-toggle", "aria-expanded": "false",
    onclick: () => setOpen(!layout.classList.contains("open")) }, "Canvas");
  const layout = h("div", { class: "chat" }, h("section", { class: "conversation", "aria-label": "Timeline" }, list), cv.el);
  root.append(h("header", { class: "chat-head" }, h("h1", {}, `${agent} · ${conv}`), followSwitch(conv), toggle), layout);
  cv.el.prepend(h("button", { type: "button", class: "canvas-close", onclick: () => setOpen(false) }, "← Back to the timeline"));

  const setOpen = (on: boolean) => {
    layout.classList.toggle("open", on);
    toggle.setAttribute("aria-expanded", on ? "true" : "false");
  };
  const showBrowser = () => { cv.showBrowser(); setOpen(true); };

  const add = (e: TimelineEntry) => {
    const k = [e.kind, e.at, e.action, e.site, e.state].join("|");
    if (keys.has(k) || (e.kind === "task" && sameTask(e))) return false;
    keys.add(k);
    entries.push(e);
    if (e.kind === "step" && e.code) cv.addFailure(e);
    return true;
  };

  // A task entry that says what the latest one says is not news (a move
  // shows the task again under its new id).
  const sameTask = (e: TimelineEntry) => {
    for (let i = entries.length - 1; i >= 0; i--) {
      const p = entries[i];
      if (p.kind === "task") return p.state === e.state && p.text === e.text;
    }
    return false;
  };

  const draw = () => {
    const items: Node[] = [];
    let run: TimelineEntry[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const last = run[run.length - 1];
      items.push(h("li", { class: "fold" }, h("button", { type: "button", class: "fold-btn", onclick: showBrowser },
        `Browser · ${run.length} action${run.length === 1 ? "" : "s"}`, h("span", { class: "meta" }, ` · ${last.url ?? ""} · ${clock(last.at)}`))));
      run = [];
    };
    for (const e of entries) {
      if (e.kind === "step" && !e.code) {
        run.push(e);
        continue;
      }
      flush();
      items.push(entryItem(e));
    }
    flush();
    if (items.length === 0) items.push(h("li", { class: "empty" }, "Nothing has happened in this conversation yet."));
    list.replaceChildren(...items);
  };

  const entryItem = (e: TimelineEntry): HTMLElement => {
    if (e.kind === "step") {
      return h("li", { class: "failed" }, h("button", { type: "button", class: "fail-btn", onclick: () => { cv.showFailure(e); setOpen(true); } },
        `${e.action} failed (${e.code}) · ${clock(e.at)}`));
    }
    if (e.kind === "approval") {
      const pending = !e.decision && state.approvals.has(approvalKey({ conversation: conv, site: e.site ?? "" }));
      const r: SiteRequest = state.approvals.get(approvalKey({ conversation: conv, site: e.site ?? "" }))
        ?? { conversation: conv, agent, site: e.site ?? "", url: e.url ?? "", at: e.at };
      return h("li", { class: "approval-item" }, pending ? approvalCard(r)
        : h("p", {}, `${e.site}: ${e.decision ? "answered " + e.decision : "no longer waiting"} · ${clock(e.at)}`));
    }
    return h("li", { class: "task-item" }, h("p", {}, `Task ${e.state}: ${e.text ?? ""} · ${clock(e.at)}`));
  };

  // A view that followed a move says so once, under the heading.
  const movedFrom = route.query.get("moved");
  if (movedFrom) {
    root.querySelector(".chat-head")?.after(h("p", { class: "moved-note", role: "status" },
      `This conversation moved to ${conv} (it was ${movedFrom}).`));
  }
  if (route.query.get("tab") === "browser") showBrowser();
  if (route.query.has("tab") || movedFrom) dropQuery();
  draw();
  // The history, and again after every (re)connection: what happened while
  // the socket was down is in the journal.
  const load = () => get<Timeline>("/api/timeline?conversation=" + encodeURIComponent(conv)).then((t) => {
    if (t.movedTo) { // an old link: the conversation lives under its new id
      location.replace(href("chat", t.agent || agent, t.movedTo) + "?moved=" + encodeURIComponent(conv));
      return;
    }
    history = t;
    for (const e of t.entries) add(e);
    entries.sort((a, b) => a.at.localeCompare(b.at));
    draw();
    cv.update();
  }).catch(() => {});
  void load();

  const offStep = onStep((e) => {
    if (e.conversation !== conv || !add(e)) return;
    draw();
    if (e.action === "navigate" && !e.code) showBrowser(); // the panel opens itself
  });
  const offApproval = onApproval((r: SiteRequest, decision: string) => {
    if (r.conversation !== conv) return;
    if (decision) {
      const waiting = entries.find((e) => e.kind === "approval" && e.site === r.site && !e.decision);
      if (waiting) waiting.decision = decision;
    } else {
      add({ kind: "approval", conversation: conv, at: r.at, site: r.site, url: r.url });
    }
    draw();
  });
  const offTask = onTask((t, at) => {
    if (t.conversation !== conv) return;
    if (add({ kind: "task", conversation: conv, at, state: t.state, text: t.endReason || t.description })) draw();
  });
  const off = subscribe((topic, c) => {
    if (topic === "hello") return void load();
    if (c !== conv && topic !== "stop") return;
    if (topic === "sessions" || topic === "snapshots" || topic === "stop") cv.update();
  });
  // The session moved to a new id: this view follows it there.
  const offMoved = onMoved((m) => {
    if (m.from !== conv) return;
    location.replace(href("chat", m.agent || agent, m.to) + "?moved=" + encodeURIComponent(conv));
  });
  return () => { offStep(); offApproval(); offTask(); offMoved(); off(); tab.close(); };
};
