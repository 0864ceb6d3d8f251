// Settings → Tailnet: where buddi is on the owner's tailnet, and the
// owner's list of tailnet logins, which open the dashboard signed in
// without a link. Removing a login ends its hands and signs its devices
// out at once.
import { get, post } from "../api";
import { fill, h } from "../dom";
import { act } from "../notice";
import type { TailnetView } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "tailnet", title: "Tailnet", rank: 42, render });

function render(root: HTMLElement): () => void {
  const where = h("p", {});
  const list = h("div", { "aria-live": "polite" });
  const said = h("p", { class: "said", "aria-live": "polite" });
  const login: HTMLInputElement = h("input", { name: "login", required: true, placeholder: "you@example.com", "aria-label": "Tailnet login", autocomplete: "off", inputmode: "email" });
  const go: HTMLButtonElement = h("button", { type: "submit", class: "primary" }, "Add login");
  const form = h("form", { class: "tailnet-form" }, login, go);
  const show = (v: TailnetView) => {
    if (!v.on) {
      fill(where, "buddi is not on a tailnet. Start it with BUDDI_TAILNET=1 (a buddi built with the tailnet) to reach it from your phone through Tailscale.");
      form.hidden = true;
      fill(list);
      return;
    }
    form.hidden = false;
    fill(where, v.url ? `buddi is on your tailnet at ${v.url}/. The logins below open it signed in, without a link.` : "buddi's tailnet node is not up yet. The logins below open it signed in, without a link, once it is.");
    if (v.owners.length === 0) {
      fill(list, h("p", { class: "empty" }, "No login yet: the first one to sign in over the tailnet with a link from this computer is added."));
      return;
    }
    fill(list, h("ul", { class: "rows" }, v.owners.map((o) => {
      const out = h("p", { class: "said", "aria-live": "polite" });
      const b: HTMLButtonElement = h("button", { type: "button", class: "danger" }, "Remove");
      b.addEventListener("click", () => void act(b, out, async () => {
        show(await post<TailnetView>("/api/tailnet/owners/remove", { name: o }));
        return `${o} is removed; its devices are signed out.`;
      }));
      return h("li", { "data-login": o }, h("span", {}, o), b, out);
    })));
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void act(go, said, async () => {
      const v = await post<TailnetView>("/api/tailnet/owners", { name: login.value });
      const added = login.value.trim().toLowerCase();
      login.value = "";
      show(v);
      return `${added} opens buddi signed in over the tailnet.`;
    });
  });
  root.append(where, form, said, list);
  get<TailnetView>("/api/tailnet").then(show).catch((e: Error) => fill(list, h("p", { class: "said bad" }, e.message)));
  return () => {};
}
