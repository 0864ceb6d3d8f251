// The owner's controls of one session, each answering with what happened.
import { post } from "../api";
import { claimHand } from "../canvas/hand";
import { h } from "../dom";
import { act, stateLine } from "../notice";
import { HandBrowserOffline, type SessionInfo } from "../types";

// controls returns the buttons that fit the session's state and the line
// where their answers show; update redraws them for a new state.
export function controls(): { el: HTMLElement; update: (s: SessionInfo) => void } {
  const buttons = h("div", { class: "controls" });
  const said = stateLine();
  const el = h("div", {}, buttons, said.el);
  let shown = "";
  const update = (s: SessionInfo) => {
    said.shows(s.state);
    const key = s.conversation + "/" + s.state;
    if (key === shown) return;
    shown = key;
    // b is a control whose sentence holds while the session's state fits.
    const b = (label: string, cls: string, fits: (state: string) => boolean, run: () => Promise<string>) => {
      const btn: HTMLButtonElement = h("button", { type: "button", class: cls, onclick: () => void act(btn, said.el, async () => {
        said.holds(null);
        const text = await run();
        said.holds(fits);
        return text;
      }) }, label);
      return btn;
    };
    const conv = s.conversation;
    const list: HTMLButtonElement[] = [];
    if (s.state !== "taken_over" && s.state !== "closing" && s.state !== "stopped") {
      list.push(b(s.computer ? "Take over at the computer" : "Take over", "primary", (st) => st === "taken_over", async () => {
        claimHand(conv); // the hand is this tab's: it attaches here, and no other tab takes it
        const now = await post<SessionInfo>("/api/browser/takeover", { conversation: conv });
        if (now.handReason === HandBrowserOffline) {
          return `Taken over: ${s.agent} is paused, but your browser is not connected, so there is no page to drive yet.`;
        }
        return s.computer
          ? `Taken over: ${s.agent} is paused and any action in flight was abandoned; take over at the computer, where every app and window stays as it is.`
          : `Taken over: ${s.agent} is paused, any action in flight was abandoned, and the page is kept for you.`;
      }));
    }
    if (s.state === "paused" || s.state === "taken_over") {
      list.push(b("Resume access", "resume", (st) => st === "ready" || st === "working", async () => {
        await post("/api/browser/resume", { conversation: conv });
        return `Access resumed: ${s.agent} gets the browser back and must observe again before acting.`;
      }));
    }
    if (s.state !== "closing") {
      list.push(b("Close & release", "danger", (st) => st === "closing", async () => {
        await post("/api/browser/release", { conversation: conv });
        return `Released: the task of ${conv} ended and its tabs are closed; other conversations keep theirs.`;
      }));
    }
    buttons.replaceChildren(...list);
  };
  return { el, update };
}
