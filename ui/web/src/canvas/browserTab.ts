// The Browser tab of a conversation's canvas: the live session (its
// picture, state and controls) while it lives; its last picture as history
// once it ended; "Open a browser" when there never was one.
//
// The remote hand slots in here: registerLiveView replaces the picture with
// a live view (a canvas the owner drives) while the session is taken over.
import { h } from "../dom";
import { openBrowser } from "../parts/open";
import { sessionCard, type SessionCard } from "../parts/session";
import { snapshotView } from "../parts/snapshot";
import { state } from "../store";
import type { SessionInfo, Snapshot } from "../types";

// LiveView is what the remote hand provides: an element that shows and
// drives the page of a taken-over session, and how to let it go.
export interface LiveView { el: HTMLElement; close: () => void }

let liveView: ((s: SessionInfo) => LiveView | null) | null = null;

// registerLiveView installs the remote hand's view (issue 12).
export function registerLiveView(f: (s: SessionInfo) => LiveView | null): void { liveView = f; }

export interface BrowserTab { el: HTMLElement; update: () => void; close: () => void }

// browserTab shows conv's browser; history is the journal's last snapshot.
export function browserTab(conv: string, agent: string, history: () => Snapshot | undefined): BrowserTab {
  const el = h("div", { class: "browser-tab" });
  let card: SessionCard | null = null;
  let hand: LiveView | null = null;
  let mode = "";
  const past = snapshotView();
  const update = () => {
    const s = state.sessions.get(conv);
    const next = s ? "live" : history() ? "history" : "empty";
    if (next !== mode) {
      mode = next;
      card = null;
      el.replaceChildren();
      if (s) {
        card = sessionCard(s, false);
        el.append(card.el);
        if (agent === "owner") el.append(h("div", { class: "address" }, openBrowser(conv, true)));
      } else if (next === "history") {
        el.append(h("p", { class: "ended" }, "This session has ended; its last picture is kept as history."), past.el);
      } else {
        el.append(h("p", { class: "empty" }, "No browser in this conversation yet. The agent's browser shows here when it acts; or open one yourself:"),
          openBrowser(agent === "owner" ? conv : undefined));
      }
    }
    if (s && card) {
      card.update(s);
      card.shot();
      toggleHand(s);
    } else if (next === "history") {
      past.update(conv, false, history());
    }
  };
  const toggleHand = (s: SessionInfo) => {
    const want = s.state === "taken_over" && liveView !== null;
    if (want && !hand) {
      hand = liveView!(s);
      if (hand) card!.el.querySelector(".snapshot")?.replaceWith(hand.el);
    } else if (!want && hand) {
      hand.close();
      hand = null;
      mode = ""; // rebuild with the picture
      update();
    }
  };
  update();
  return { el, update, close: () => hand?.close() };
}
