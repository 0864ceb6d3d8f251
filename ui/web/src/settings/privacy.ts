// Settings → Privacy & Safety: site approval and air-gap, the sites
// approved for good, the sites holding a login, and the sites declined.
import { ApiError, get, post } from "../api";
import { fill, h } from "../dom";
import { act, notify } from "../notice";
import type { BrowserSettings, Login, SiteGrant } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "privacy", title: "Privacy & Safety", rank: 20, render });

// browserLogins lists the sites holding a login; a mode that keeps no
// logins of its own (not_supported) holds none.
function browserLogins(): Promise<Login[]> {
  return get<Login[]>("/api/browser/logins").catch((e: unknown) => {
    if (e instanceof ApiError && e.code === "not_supported") return [];
    throw e;
  });
}

function render(root: HTMLElement): () => void {
  const toggles = h("div", {});
  const approved = h("div", {});
  const logins = h("div", {});
  const declined = h("div", {});
  root.append(toggles, h("h3", {}, "Approved sites"), approved, h("h3", {}, "Sites holding a login"), logins,
    h("h3", {}, "Declined sites"), declined);
  const refresh = () => {
    void get<BrowserSettings>("/api/settings/browser").then(drawToggles).catch(() => {});
    void get<SiteGrant[]>("/api/browser/sites").then((all) => {
      drawApproved(all.filter((g) => g.scope !== "rejected"));
      drawDeclined(all.filter((g) => g.scope === "rejected"));
    }).catch(() => {});
    void browserLogins().then(drawLogins).catch((e) => fill(logins, h("p", { class: "said bad" }, e.message)));
  };

  const drawToggles = (s: BrowserSettings) => {
    const said = h("p", { class: "said", "aria-live": "polite" });
    const change = (el: HTMLInputElement, body: Record<string, unknown>, done: string) =>
      act(null, said, async () => { await post("/api/settings/browser", body); refresh(); return done; }).then((ok) => { if (!ok) el.checked = !el.checked; });
    const airGap = h("input", { type: "checkbox", name: "airGap", checked: s.airGap, disabled: !!s.locked.airGap });
    airGap.addEventListener("change", () => {
      if (!airGap.checked) return void change(airGap, { airGap: false }, "Air-gap is off: agents may browse the public web again.");
      void browserLogins().then((list) => {
        const names = list.map((l) => l.site);
        const ok = confirm(`Turn air-gap on? Agents will reach only your preview origins, and every saved login of the agents' browser is wiped${names.length ? ": " + names.join(", ") : " (none is saved now)"}.`);
        if (!ok) { airGap.checked = false; return; }
        void change(airGap, { airGap: true }, `Air-gap is on; the saved logins were wiped${names.length ? " (" + names.join(", ") + ")" : ""}.`);
      }).catch((e) => { airGap.checked = false; notify(e.message, true); });
    });
    const ask = h("input", { type: "checkbox", name: "siteApproval", checked: s.siteApproval === "ask", disabled: s.airGap || !!s.locked.siteApproval });
    ask.addEventListener("change", () => void change(ask, { siteApproval: ask.checked ? "ask" : "off" },
      ask.checked ? "Agents now ask you before opening a site you have not approved." : "Agents open public sites without asking (page links still need an approved site)."));
    fill(toggles, h("fieldset", {}, h("legend", {}, "Agent web browsing"),
      s.airGap && h("p", { class: "banner-inline" }, "Air-gap is on: agents reach only your preview origins, so the browsing settings below are off until you turn air-gap off."),
      h("label", { class: "choice" }, airGap, h("span", {}, "Air-gap: agents reach only the preview origins")),
      s.locked.airGap && h("p", { class: "note" }, `Set by ${s.locked.airGap}.`),
      h("label", { class: "choice" }, ask, h("span", {}, "Ask me before an agent opens a site I have not approved")),
      s.locked.siteApproval && h("p", { class: "note" }, `Set by ${s.locked.siteApproval}.`),
      s.sessionsOpen > 0 && h("p", { class: "note" }, "These change only with no session open."), said));
  };

  const rowList = <T>(el: HTMLElement, items: T[], none: string, row: (x: T, said: HTMLElement) => Node[]) => {
    if (items.length === 0) return fill(el, h("p", { class: "empty" }, none));
    fill(el, h("ul", { class: "rows" }, items.map((x) => {
      const said = h("p", { class: "said", "aria-live": "polite" });
      return h("li", {}, ...row(x, said), said);
    })));
  };
  const button = (label: string, said: HTMLElement, run: () => Promise<string>, cls = "") => {
    const b: HTMLButtonElement = h("button", { type: "button", class: cls }, label);
    b.addEventListener("click", () => void act(b, said, async () => { const r = await run(); refresh(); return r; }));
    return b;
  };
  const drawApproved = (list: SiteGrant[]) => rowList(approved, list, "No site is approved.", (s, said) => [
    h("span", {}, `${s.site} (${s.scope === "once" ? "once, in " + (s.conversation ?? "") : "always"}${s.scheme ? ", " + s.scheme : ""}${s.query ? ", ?" + s.query : ""})`),
    button("Revoke", said, async () => { await post("/api/browser/sites/revoke", { site: s.site }); return `${s.site} is no longer approved; agents ask again.`; }, "danger")]);
  const drawLogins = (list: Login[]) => {
    rowList(logins, list, "No site holds a login in the agents' browser.", (l, said) => [
      h("span", {}, `${l.site} (${l.cookies} cookie${l.cookies === 1 ? "" : "s"}${l.storage ? ", stored data" : ""})`),
      button("Sign out", said, async () => { await post("/api/browser/logins/signout", { site: l.site }); return `Signed out of ${l.site}.`; }, "danger")]);
    if (list.length > 1) {
      const said = h("p", { class: "said", "aria-live": "polite" });
      logins.append(button("Sign out of all", said, async () => {
        const r = await post<{ sites: string[] }>("/api/browser/logins/signout", { all: true });
        return `Signed out of ${r.sites.length} site${r.sites.length === 1 ? "" : "s"}.`;
      }, "danger"), said);
    }
  };
  const drawDeclined = (list: SiteGrant[]) => rowList(declined, list, "No site is declined.", (d, said) => [
    h("span", {}, d.site),
    button("Ask again", said, async () => { await post("/api/browser/sites/revoke", { site: d.site }); return `The next visit to ${d.site} asks you again.`; })]);

  refresh();
  return () => {};
}
