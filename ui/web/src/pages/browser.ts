// The Host browser page (#/browser): every session, live, with its
// controls, and the install's Stop all browsers / Resume access.
import { post } from "../api";
import { fill, h } from "../dom";
import { act, stateLine } from "../notice";
import { openBrowser } from "../parts/open";
import { sessionCard, type SessionCard } from "../parts/session";
import type { Page } from "../router";
import { state, subscribe } from "../store";
import type { StopView } from "../types";

// RESUMED says what the agents may do once a Stop is lifted, as their next
// act answers it (messages.ResumedWords says the same on the other surfaces).
const RESUMED = "Browser access is resumed. Agents with a task may go on: their tabs were closed, so each starts with a new observation or a navigation (an action on an older observation is refused); nothing they were doing is replayed. Send an agent a message to carry on.";

export const browserPage: Page = (root) => {
  const stopBox = h("section", { class: "card stop-box", "aria-label": "All browsers" });
  const list = h("div", { class: "sessions" });
  const empty = h("p", { class: "empty" }, "No browser sessions. An agent's session appears here when the owner gives it a task.");
  root.append(h("h1", {}, "Host browser"), stopBox, h("section", { class: "card" }, openBrowser()), list, empty);
  const cards = new Map<string, SessionCard>();

  const sync = () => {
    for (const [conv, card] of cards) {
      if (!state.sessions.has(conv)) {
        card.el.remove();
        cards.delete(conv);
      }
    }
    for (const s of [...state.sessions.values()].sort((a, b) => a.conversation.localeCompare(b.conversation))) {
      let card = cards.get(s.conversation);
      if (!card) {
        card = sessionCard(s);
        cards.set(s.conversation, card);
      } else {
        card.update(s);
      }
      list.append(card.el); // keeps the order
    }
    empty.hidden = cards.size > 0 || !state.ready;
  };

  const said = stateLine();
  const showStop = (st: StopView) => {
    const stopped = st.stopped;
    said.shows(stopped ? "stopped" : "running");
    const btn: HTMLButtonElement = h("button", { type: "button", class: stopped ? "primary" : "danger" },
      stopped ? "Resume access" : "Stop all browsers");
    btn.addEventListener("click", () => void act(btn, said.el, async () => {
      said.holds(null);
      if (stopped) {
        await post("/api/browser/resume", { all: true });
        said.holds((s) => s === "running");
        return RESUMED;
      }
      const r = await post<{ stopped: boolean; sessions: number }>("/api/browser/stop");
      const what = r.sessions === 0 ? "no session was running"
        : r.sessions === 1 ? "1 session dropped its work and closed its tabs"
        : `${r.sessions} sessions dropped their work and closed their tabs`;
      said.holds((s) => s === "stopped");
      return `All browser access is stopped: ${what}. It stays stopped, across restarts, until you resume access.`;
    }));
    fill(stopBox, h("h2", {}, stopped ? "All browsers are stopped" : "All browsers"),
      h("p", {}, stopped
        ? "No agent can use a browser until you resume access; this holds across restarts."
        : "Stop all browsers closes every conversation's tabs and refuses all browser work until you resume access."),
      btn, said.el);
  };

  showStop(state.stop);
  sync();
  return subscribe((topic, conv) => {
    if (topic === "sessions" || topic === "steps") {
      if (conv && cards.has(conv) && state.sessions.has(conv)) cards.get(conv)!.update(state.sessions.get(conv)!);
      else sync();
    }
    if (topic === "snapshots" && conv) cards.get(conv)?.shot();
    if (topic === "stop") showStop(state.stop);
  });
};
