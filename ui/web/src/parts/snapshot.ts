// The latest picture of a session's page, with when it was taken. Pictures
// come pushed after each act while the dashboard is open; one is asked for
// when the page has none yet.
import { post } from "../api";
import { clock, h, jpeg } from "../dom";
import { state } from "../store";
import type { SessionInfo, Snapshot } from "../types";

const asked = new Set<string>(); // conversation|page change already asked for

// snapshotView shows conv's newest picture. For a live session s, a
// picture older than the page's last change is not shown as the page:
// the new one is asked for (the session takes one after every step).
export function snapshotView(): { el: HTMLElement; update: (conv: string, live: boolean, fallback?: Snapshot, s?: SessionInfo) => void } {
  const img = h("img", { class: "shot", alt: "", hidden: true });
  const caption = h("p", { class: "caption" });
  const el = h("figure", { class: "snapshot" }, img, h("figcaption", {}, caption));
  let at = "";
  const ask = (conv: string, since: string, redraw: () => void) => {
    const key = conv + "|" + since;
    if (asked.has(key)) return;
    asked.add(key);
    post<Snapshot>("/api/browser/snapshot", { conversation: conv }).then((got) => {
      const had = state.snapshots.get(conv);
      if (!had || had.at < got.at) {
        state.snapshots.set(conv, got);
        redraw();
      }
    }).catch(() => {});
  };
  const update = (conv: string, live: boolean, fallback?: Snapshot, s?: SessionInfo) => {
    const redraw = () => update(conv, live, fallback, s);
    const shot = state.snapshots.get(conv) ?? fallback;
    const stopped = s?.state === "stopped";
    const stale = live && !stopped && shot && s?.pageAt && new Date(shot.at) < new Date(s.pageAt);
    if (!shot || stale) {
      img.hidden = true;
      caption.textContent = !live ? "No picture of this page was kept."
        : stale && !s?.url ? "Its tabs were closed; a picture comes with the next page it opens."
        : stale ? `The page changed at ${clock(s!.pageAt!)}; its picture is on its way.`
        : "No picture of the page yet; one comes after the agent's next action.";
      // A stopped session has no address (its tabs closed) but keeps the
      // picture from before the Stop.
      if (live && (s?.url || !s || stopped)) ask(conv, s?.pageAt ?? "", redraw);
      return;
    }
    caption.textContent = `Captured ${clock(shot.at)}${shot.url ? " · " + shot.url : ""}${!live ? " · history" : stopped ? " · before the Stop" : ""}`;
    if (shot.at !== at) {
      at = shot.at;
      img.src = jpeg(shot.jpeg);
      img.alt = `The page at ${shot.url || "an unknown address"}, captured ${clock(shot.at)}`;
      img.setAttribute("data-at", shot.at);
    }
    img.hidden = false;
  };
  return { el, update };
}
