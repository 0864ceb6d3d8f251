// "Open a browser": the owner types an address, and a session of the
// owner's own opens it, under the same rules as an agent's.
import { post } from "../api";
import { h } from "../dom";
import { act } from "../notice";
import { href } from "../router";
import type { Opened } from "../types";

// openBrowser is the button and the address form it reveals. With a
// conversation (the owner's own) it navigates that session; without, a
// new conversation of the owner's opens and the page goes to it.
export function openBrowser(conversation?: string, startOpen = false): HTMLElement {
  const input = h("input", { type: "url", name: "url", required: true, placeholder: "https://example.com/",
    "aria-label": "Address to open", autocomplete: "off", inputmode: "url" });
  const go: HTMLButtonElement = h("button", { type: "submit", class: "primary" }, "Open");
  const said = h("p", { class: "said", "aria-live": "polite" });
  const form = h("form", { class: "open-form", hidden: !startOpen }, input, go);
  const show: HTMLButtonElement = h("button", { type: "button", hidden: startOpen }, "Open a browser");
  show.addEventListener("click", () => { form.hidden = false; show.hidden = true; input.focus(); });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void act(go, said, async () => {
      const o = await post<Opened>("/api/browser/open", { url: input.value, conversation: conversation ?? "" });
      if (!conversation) location.hash = href("chat", "owner", o.conversation) + "?tab=browser";
      return `Opened ${o.outcome.url || input.value} (${o.outcome.outcome}) in your own browser session ${o.conversation}.`;
    });
  });
  return h("div", { class: "open-browser" }, show, form, said);
}
