// What the Browser tab shows of a take-over with nothing to drive: in Your
// browser with the extension offline (Chrome closed on the host) the agent
// is paused, but there is no page to paint, so a live view would wait for a
// first frame that never comes. Instead the panel says so and offers two
// ways out: open Chrome on the host and try again (taking over again asks
// afresh whether the browser is back), or move this install to buddi's own
// browser, which releases this conversation's session first because the
// mode changes only with no session open.
import { ApiError, post } from "../api";
import { h } from "../dom";
import { act } from "../notice";
import { HandBrowserOffline, type SessionInfo } from "../types";
import type { LiveView } from "./view";

// offlineView is the panel for s; said is where its buttons' answers show
// (the Browser tab's own line, kept when the released session's card goes).
export function offlineView(s: SessionInfo, said: HTMLElement): LiveView {
  const conv = s.conversation;
  const retry: HTMLButtonElement = h("button", { type: "button", class: "primary",
    onclick: () => void act(retry, said, async () => {
      const again = await post<SessionInfo>("/api/browser/takeover", { conversation: conv });
      return again.handReason === HandBrowserOffline
        ? "Your browser is still not connected. Open Chrome on the host, give the buddi extension a moment to connect, then try again."
        : "Your browser is connected again; the live view of the page opens here.";
    }) }, "Try again");
  const instead: HTMLButtonElement = h("button", { type: "button",
    onclick: () => void act(instead, said, () => useBuddisBrowser(conv)) }, "Use buddi's browser instead");
  const el = h("div", { class: "hand-offline", role: "group", "aria-label": "Your browser is not connected" },
    h("h3", {}, "Your browser isn't connected"),
    h("p", {}, `${s.agent} is paused, but Chrome on the host is not connected to buddi, so there is no page to show here.`),
    h("p", {}, "Open Chrome on the host: the buddi extension connects again on its own. Then press Try again."),
    h("div", { class: "controls" }, retry, instead));
  return { el, close: () => {} };
}

// useBuddisBrowser releases conv's session, then switches the mode to
// Playwright. When the switch is refused (another conversation's session is
// open) the refusal's sentence is the answer, saying the release held.
async function useBuddisBrowser(conv: string): Promise<string> {
  await post("/api/browser/release", { conversation: conv });
  try {
    await post("/api/settings/browser", { mode: "playwright" });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    throw new ApiError(e.code, `This conversation's session is released, but the mode is still Your browser: ${e.message}`, e.status);
  }
  return "This conversation's session is released and agents now use buddi's own browser; the next task opens it.";
}
