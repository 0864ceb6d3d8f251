// The Browser tab of a conversation's canvas: the live session (its
// picture, state and controls) while it lives; its last picture as history
// once it ended; "Open a browser" when there never was one.
//
// The remote hand slots in here: registerLiveView replaces the picture with
// a live view (a canvas the owner drives) while the session is taken over;
// a take-over with no browser connected shows why instead (offline.ts).
import { h } from "../dom";
import { openBrowser } from "../parts/open";
import { sessionCard, type SessionCard } from "../parts/session";
import { snapshotView } from "../parts/snapshot";
import { state } from "../store";
import { HandBrowserOffline, type SessionInfo, type Snapshot } from "../types";
import { offlineView } from "./offline";
import type { LiveView } from "./view";


// A live view's factory gets the session and the Browser tab's own line,
// where it says what its controls did.
type LiveViewOf = (s: SessionInfo, said: HTMLElement) => LiveView | null;
let liveView: LiveViewOf | null = null;

// registerLiveView installs the remote hand's view (issue 12).
export function registerLiveView(f: LiveViewOf): void { liveView = f; }

export interface BrowserTab { el: HTMLElement; update: () => void; close: () => void }

// browserTab shows conv's browser; history is the journal's last snapshot.
export function browserTab(conv: string, agent: string, history: () => Snapshot | undefined): BrowserTab {
  const el = h("div", { class: "browser-tab" });
  const said = h("p", { class: "said", "aria-live": "polite" }); // outlives the card, for a released session's answer
  let card: SessionCard | null = null;
  let view: LiveView | null = null; // the live view or the offline panel, in place of the picture
  let viewKind = "";
  let mode = "";
  const past = snapshotView();
  const dropView = () => {
    view?.close();
    view = null;
    viewKind = "";
  };
  const update = () => {
    const s = state.sessions.get(conv);
    const next = s ? "live" : history() ? "history" : "empty";
    if (next !== mode) {
      mode = next;
      card = null;
      dropView();
      el.replaceChildren();
      if (s) {
        card = sessionCard(s, false);
        // The owner's address bar sits above the card, as a browser's does,
        // so a picture arriving never moves it under a finger or a pointer.
        if (agent === "owner") el.append(h("div", { class: "address" }, openBrowser(conv, true)));
        el.append(card.el);
      } else if (next === "history") {
        el.append(h("p", { class: "ended" }, "This session has ended; its last picture is kept as history."), past.el);
      } else {
        el.append(h("p", { class: "empty" }, "No browser in this conversation yet. The agent's browser shows here when it acts; or open one yourself:"),
          openBrowser(agent === "owner" ? conv : undefined));
      }
      el.append(said);
    }
    if (s && card) {
      card.update(s);
      card.shot();
      toggleView(s);
    } else if (next === "history") {
      past.update(conv, false, history());
    }
  };
  // toggleView puts the view the session's state calls for in place of the
  // picture: the live view while taken over, the offline panel while taken
  // over with no browser to drive, and the picture again otherwise.
  const toggleView = (s: SessionInfo) => {
    const want = s.state !== "taken_over" ? "" : s.handReason === HandBrowserOffline ? "offline" : liveView ? "hand" : "";
    if (want === viewKind) {
      view?.update?.(s);
      return;
    }
    const old = view;
    old?.close();
    view = want === "offline" ? offlineView(s, said) : want === "hand" ? liveView!(s, said) : null;
    viewKind = view ? want : "";
    if (view) {
      (old?.el ?? card!.el.querySelector(".snapshot"))?.replaceWith(view.el);
    } else if (old) {
      mode = ""; // rebuild with the picture
      update();
    }
  };
  update();
  return { el, update, close: () => view?.close() };
}
