// A conversation's canvas: a strip of tabs over one panel. The Browser tab
// (named Computer in Use my apps, where the session drives the owner's
// apps) is pinned while the session lives (first on the strip, and it cannot be
// closed); once the session ends it becomes ordinary history that can be
// closed. Failed calls are not tabs of their own on the strip: they wait in
// the overflow menu, whose button carries a red dot while one is unopened.
import { clock, h, pin } from "../dom";
import { state } from "../store";
import type { TimelineEntry } from "../types";
import type { BrowserTab } from "./browserTab";

export interface Canvas {
  el: HTMLElement;
  showBrowser: () => void;
  showFailure: (e: TimelineEntry) => void;
  addFailure: (e: TimelineEntry) => void;
  update: () => void;
}

const keyOf = (e: TimelineEntry) => e.at + "|" + e.action;

export function canvas(conv: string, browser: BrowserTab): Canvas {
  const strip = h("div", { class: "strip", role: "tablist", "aria-label": "Canvas" });
  const panel = h("div", { class: "panel", role: "tabpanel" });
  const menu = h("div", { class: "overflow-menu", role: "menu", hidden: true });
  const dot = h("span", { class: "dot", "aria-label": "a failed call", hidden: true });
  const more: HTMLButtonElement = h("button", { type: "button", class: "more", "aria-haspopup": "menu",
    "aria-label": "More tabs", onclick: () => { menu.hidden = !menu.hidden; drawMenu(); } }, "⋯", dot);
  const el = h("section", { class: "canvas", "aria-label": "Canvas" }, h("div", { class: "strip-row" }, strip, more), menu, panel);

  const failures: TimelineEntry[] = [];
  const seen = new Set<string>();
  const openTabs: TimelineEntry[] = []; // failures the owner opened
  let selected = "browser";
  let browserClosed = false;

  const live = () => state.sessions.has(conv);
  // The live tab's name: what the session drives.
  const liveName = () => (state.sessions.get(conv)?.computer ?? state.mode === "computer") ? "Computer" : "Browser";

  const draw = () => {
    if (live()) browserClosed = false;
    const tabs: Node[] = [];
    if (!browserClosed) {
      const pinned = live();
      const name = liveName();
      tabs.push(h("div", { class: "tab" + (selected === "browser" ? " on" : ""), "data-tab": "browser", "data-pinned": pinned ? "true" : "false" },
        h("button", { type: "button", role: "tab", "aria-selected": selected === "browser" ? "true" : "false",
          onclick: () => select("browser") }, pinned && pin(), name),
        !pinned && h("button", { type: "button", class: "x", "aria-label": `Close the ${name} tab`,
          onclick: () => { browserClosed = true; if (selected === "browser") selected = openTabs[0] ? keyOf(openTabs[0]) : ""; draw(); } }, "×")));
    }
    for (const f of openTabs) {
      const k = keyOf(f);
      tabs.push(h("div", { class: "tab failed" + (selected === k ? " on" : ""), "data-tab": "failure" },
        h("button", { type: "button", role: "tab", "aria-selected": selected === k ? "true" : "false", onclick: () => select(k) },
          `${f.action} failed`),
        h("button", { type: "button", class: "x", "aria-label": `Close ${f.action} failed`,
          onclick: () => { openTabs.splice(openTabs.indexOf(f), 1); if (selected === k) selected = browserClosed ? "" : "browser"; draw(); } }, "×")));
    }
    strip.replaceChildren(...tabs);
    dot.hidden = !failures.some((f) => !seen.has(keyOf(f)));
    drawPanel();
    drawMenu();
  };

  const drawPanel = () => {
    if (selected === "browser" && !browserClosed) {
      browser.update();
      if (panel.firstChild !== browser.el) panel.replaceChildren(browser.el);
      return;
    }
    const f = openTabs.find((t) => keyOf(t) === selected);
    panel.replaceChildren(f ? failurePanel(f) : h("p", { class: "empty" }, "No tab is open; the ⋯ menu has the others."));
  };

  const drawMenu = () => {
    if (menu.hidden) return;
    const items: Node[] = [];
    if (browserClosed) items.push(h("button", { type: "button", role: "menuitem", onclick: () => { browserClosed = false; select("browser"); } }, `${liveName()} (history)`));
    for (const f of failures) {
      items.push(h("button", { type: "button", role: "menuitem", class: "failed", onclick: () => showFailure(f) },
        `${f.action} failed at ${clock(f.at)}${seen.has(keyOf(f)) ? "" : " •"}`));
    }
    if (items.length === 0) items.push(h("p", { class: "empty" }, "Nothing else here."));
    menu.replaceChildren(...items);
  };

  const select = (k: string) => {
    selected = k;
    menu.hidden = true;
    draw();
  };

  const showFailure = (f: TimelineEntry) => {
    const k = keyOf(f);
    seen.add(k);
    if (!openTabs.some((t) => keyOf(t) === k)) openTabs.push(f);
    select(k);
  };

  const addFailure = (f: TimelineEntry) => {
    if (failures.some((t) => keyOf(t) === keyOf(f))) return;
    failures.push(f);
    draw();
  };

  draw();
  return { el, showBrowser: () => { browserClosed = false; select("browser"); }, showFailure, addFailure, update: draw };
}

function failurePanel(f: TimelineEntry): HTMLElement {
  return h("div", { class: "failure" }, h("h3", {}, `${f.action} failed at ${clock(f.at)}`),
    h("p", {}, `Code: ${f.code}`), f.url && h("p", { class: "url" }, f.url),
    h("p", {}, "The call is history: the agent read this refusal and decides what to do next."));
}
