// The latest picture of a session's page, with when it was taken. Pictures
// come pushed after each act while the dashboard is open; one is asked for
// when the page has none yet.
import { post } from "../api";
import { clock, h, jpeg } from "../dom";
import { state } from "../store";
import type { Snapshot } from "../types";

const asked = new Set<string>();

export function snapshotView(): { el: HTMLElement; update: (conv: string, live: boolean, fallback?: Snapshot) => void } {
  const img = h("img", { class: "shot", alt: "", hidden: true });
  const caption = h("p", { class: "caption" });
  const el = h("figure", { class: "snapshot" }, img, h("figcaption", {}, caption));
  let at = "";
  const update = (conv: string, live: boolean, fallback?: Snapshot) => {
    const s = state.snapshots.get(conv) ?? fallback;
    if (!s) {
      caption.textContent = live ? "No picture of the page yet; one comes after the agent's next action." : "No picture of this page was kept.";
      img.hidden = true;
      if (live && !asked.has(conv)) {
        asked.add(conv);
        post<Snapshot>("/api/browser/snapshot", { conversation: conv }).then((got) => {
          if (!state.snapshots.has(conv)) {
            state.snapshots.set(conv, got);
            update(conv, live, fallback);
          }
        }).catch(() => {});
      }
      return;
    }
    caption.textContent = `Captured ${clock(s.at)}${s.url ? " · " + s.url : ""}${live ? "" : " · history"}`;
    if (s.at !== at) {
      at = s.at;
      img.src = jpeg(s.jpeg);
      img.alt = `The page at ${s.url || "an unknown address"}, captured ${clock(s.at)}`;
      img.setAttribute("data-at", s.at);
    }
    img.hidden = false;
  };
  return { el, update };
}
