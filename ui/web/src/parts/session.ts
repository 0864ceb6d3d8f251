// One session as the Host browser page and the Browser tab show it.
import { clock, h, until } from "../dom";
import { href } from "../router";
import { state } from "../store";
import type { SessionInfo } from "../types";
import { controls } from "./controls";
import { snapshotView } from "./snapshot";

export const stateLabel = (s: SessionInfo): string => {
  switch (s.state) {
    case "ready": return "Ready";
    case "working": return "Working";
    case "paused": return s.pauseReason ? `Paused: ${s.pauseReason}` : "Paused";
    case "taken_over": return "Taken over";
    case "closing": return "Closing";
    case "stopped": return "Stopped: tabs closed";
  }
  return s.state;
};

export interface SessionCard { el: HTMLElement; update: (s: SessionInfo) => void; shot: () => void }

// sessionCard builds a card whose parts update in place.
export function sessionCard(first: SessionInfo, link = true): SessionCard {
  const title = h("h3", {});
  const badge = h("span", { class: "badge" });
  const task = h("p", { class: "task" });
  const url = h("p", { class: "url" });
  const steps = h("p", { class: "steps" });
  const last = h("p", { class: "last" });
  const ctl = controls();
  const snap = snapshotView();
  // The controls come before the picture, so they stay above the fold of a
  // laptop's screen whatever the picture's height.
  const el = h("article", { class: "card session", "data-conversation": first.conversation },
    h("header", {}, title, badge), task, url, steps, last, ctl.el, snap.el);
  let cur = first;
  const update = (s: SessionInfo) => {
    cur = s;
    const name = `${s.agent} · ${s.conversation}`;
    title.replaceChildren(link ? h("a", { href: href("chat", s.agent, s.conversation) }, name) : name);
    badge.textContent = stateLabel(s);
    badge.className = "badge " + s.state;
    task.textContent = s.task;
    url.textContent = s.url || (s.state === "stopped" ? "No page: the Stop closed its tabs." : "No page open yet.");
    steps.textContent = `Step ${s.stepsUsed} of ${s.stepsMax} · ${until(s.expires)}`;
    steps.setAttribute("data-steps", String(s.stepsUsed));
    const st = state.lastStep.get(s.conversation);
    last.textContent = st ? `Last action: ${st.action}, ${st.code ? "refused (" + st.code + ")" : st.outcome ?? "done"}, at ${clock(st.at)}` : "";
    if (st) last.setAttribute("data-steps", String(st.stepsUsed ?? 0));
    ctl.update(s);
    snap.update(s.conversation, true, undefined, s);
  };
  update(first);
  return { el, update, shot: () => snap.update(cur.conversation, true, undefined, cur) };
}
