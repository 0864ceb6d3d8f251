// Settings → Computer & browser: the mode, which browser and whether it is
// headless, installing Chromium, Use my apps' browser app and allowed apps,
// and the hosts and preview origins.
import { get, post } from "../api";
import { clock, fill, h } from "../dom";
import { act } from "../notice";
import { state, subscribe } from "../store";
import type { BrowserLaunch, BrowserSettings, Permissions } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "browser", title: "Computer & browser", rank: 10, render });

function render(root: HTMLElement): () => void {
  const said = h("p", { class: "said", "aria-live": "polite" });
  const body = h("div", {});
  const install = h("div", { class: "install", "aria-live": "polite" });
  root.append(said, body, install);
  // What the owner typed into Use my apps' fields and has not saved: a
  // redraw (a refused save reloads, and so does every change of the
  // sessions) keeps it instead of putting the saved list back under the
  // owner's hands.
  let unsaved: { browserApp?: string; allowedApps?: string } = {};
  const load = () => get<BrowserSettings>("/api/settings/browser").then((s) => draw(s)).catch((e) => fill(body, h("p", { class: "said bad" }, String(e.message ?? e))));
  const change = (btn: HTMLElement | null, body: Record<string, unknown>, done: (s: BrowserSettings) => string) =>
    act(btn as HTMLButtonElement | null, said, async () => {
      const s = await post<BrowserSettings>("/api/settings/browser", body);
      if ("allowedApps" in body) unsaved = {};
      draw(s);
      return done(s);
    }).then((ok) => { if (!ok) void load(); });

  const draw = (s: BrowserSettings) => {
    const modes = h("fieldset", { class: "modes" }, h("legend", {}, "Mode"),
      s.sessionsOpen > 0 && h("p", { class: "note" }, `The mode and browser change only with no session open: ${s.sessionsOpen} session${s.sessionsOpen === 1 ? " is" : "s are"} open now. Release ${s.sessionsOpen === 1 ? "it" : "them"} first on the Host browser page.`),
      s.modes.map((m) => h("label", { class: "choice" + (m.available ? "" : " unavailable") },
        h("input", { type: "radio", name: "mode", value: m.name, checked: m.name === s.mode, disabled: !m.available,
          onchange: (ev: Event) => change(ev.target as HTMLElement, { mode: m.name }, (n) => `The mode is now ${labelOf(n)}.`) }),
        h("span", {}, m.label, !m.available && h("small", {}, ` — not available on this install yet: ${m.why ?? ""}`)))));
    const channel = h("select", { name: "channel", disabled: !!s.locked.channel, "aria-label": "Browser",
      onchange: (ev: Event) => change(ev.target as HTMLElement, { channel: (ev.target as HTMLSelectElement).value }, () => "The agents' browser is changed; it takes effect at the next launch.") },
      h("option", { value: "", selected: s.channel === "" }, "The browser buddi finds (Playwright's Chromium, else Chrome or Chromium)"),
      s.channels.map((c) => h("option", { value: c, selected: c === s.channel }, c)));
    const headless = h("input", { type: "checkbox", name: "headless", checked: s.headless, disabled: !s.hasDisplay,
      onchange: (ev: Event) => change(ev.target as HTMLElement, { headless: (ev.target as HTMLInputElement).checked }, (n) => n.headless ? "The browser runs headless from its next launch." : "The browser shows its window from its next launch.") });
    const st = s.browser;
    const browserApp = h("input", { type: "text", name: "browserApp", value: unsaved.browserApp ?? s.browserApp, "aria-label": "Browser app id", autocomplete: "off",
      oninput: (ev: Event) => { unsaved.browserApp = (ev.target as HTMLInputElement).value; } });
    const allowed = h("textarea", { name: "allowedApps", rows: 4, "aria-label": "Allowed apps, one id a line",
      oninput: (ev: Event) => { unsaved.allowedApps = (ev.target as HTMLTextAreaElement).value; } }, unsaved.allowedApps ?? s.allowedApps.join("\n"));
    const saveApps: HTMLButtonElement = h("button", { type: "button", onclick: () => change(saveApps, {
      browserApp: (browserApp as HTMLInputElement).value.trim(),
      allowedApps: (allowed as HTMLTextAreaElement).value.split("\n").map((x) => x.trim()).filter((x) => x !== ""),
    }, (n) => `Use my apps: ${n.browserApp} is the browser app and ${n.allowedApps.length} app${n.allowedApps.length === 1 ? " is" : "s are"} allowed.`) }, "Save apps");
    const perm = h("div", { class: "permissions", "aria-live": "polite" });
    const permissions = (btn: HTMLButtonElement, request: boolean) => act(btn, said, async () => {
      const p = request ? await post<Permissions>("/api/computer/permissions") : await get<Permissions>("/api/computer/permissions");
      fill(perm, h("p", { class: p.ready ? "ok" : "bad" }, p.text),
        p.checks.length > 0 && h("ul", {}, p.checks.map((c) => h("li", { class: c.ok ? "ok" : "bad" }, `${c.name}: ${c.detail}`))));
      return p.text;
    });
    const check: HTMLButtonElement = h("button", { type: "button", onclick: () => void permissions(check, false) }, "Check permissions");
    const request: HTMLButtonElement = h("button", { type: "button", disabled: s.sessionsOpen > 0, onclick: () => void permissions(request, true) }, "Request permissions");
    const apps = h("fieldset", { class: "apps" }, h("legend", {}, "Use my apps: the apps agents may use"),
      h("label", {}, "Browser app (navigate opens tabs here)", browserApp),
      h("label", {}, "Allowed apps, by id, one a line (at most 32)", allowed),
      h("p", { class: "note" }, "Any other app raises a card the first time an agent asks for it: Once, Always (added here) or Reject. Agents cannot change this list."),
      saveApps,
      h("p", { class: "note" }, "Permissions: check what the computer-control helper has here; request what it lacks only with no session open (macOS shows its own prompts; restart buddi after granting)."),
      h("div", { class: "controls" }, check, request), perm);
    fill(body, modes, apps,
      h("fieldset", {}, h("legend", {}, "Which browser the agents use"),
        h("p", { class: st.found ? "ok" : "bad" }, st.found ? `${st.browser}${st.running ? " (running)" : ""}` : "No browser installed for the agents yet."),
        st.launch && launchLine(st.launch),
        st.problem && h("p", { class: "said bad" }, st.problem),
        h("label", {}, "Browser", channel), s.locked.channel && h("p", { class: "note" }, `Set by ${s.locked.channel}.`),
        h("label", { class: "choice" }, headless, h("span", {}, "Headless (no window on this computer)")),
        !s.hasDisplay && h("p", { class: "note" }, "This computer has no display, so the browser always runs headless; you still watch and take over from here."),
        installButton()),
      h("fieldset", {}, h("legend", {}, "Where the browser may go"),
        h("p", {}, s.hosts.length ? `Only these hosts (BUDDI_BROWSER_HOSTS): ${s.hosts.join(", ")}` : "Any public site on ports 80 and 443 (BUDDI_BROWSER_HOSTS is not set)."),
        h("p", {}, s.previewOrigins.length ? `Preview origins, always reachable (BUDDI_PREVIEW_ORIGINS): ${s.previewOrigins.join(", ")}` : "No preview origins (BUDDI_PREVIEW_ORIGINS is not set)."),
        h("p", { class: "note" }, "Site approval and air-gap are under Privacy & Safety.")));
  };

  // Where the agents' browser is in its start, as buddi serve started it
  // in the background.
  const launchLine = (l: BrowserLaunch) => {
    const since = `since ${clock(l.since)}`;
    switch (l.state) {
      case "starting": return h("p", { class: "meta", "aria-live": "polite" }, `Starting (${since}); agents' acts wait for it.`);
      case "ready": return h("p", { class: "ok" }, `Ready ${since}, started in ${((l.tookMs ?? 0) / 1000).toFixed(1)} s` +
        (l.restarts ? `; started again ${l.restarts} time${l.restarts === 1 ? "" : "s"} after it stopped.` : "."));
      case "failed": return h("p", { class: "bad" }, `The last start failed (${since}); the next act tries again.`);
    }
    return h("p", { class: "meta" }, "Not started yet: it starts on the first act.");
  };

  const installButton = () => {
    const b: HTMLButtonElement = h("button", { type: "button", disabled: !!state.install?.running }, "Install Chromium");
    b.addEventListener("click", () => void act(b, said, async () => {
      await post("/api/browser/install");
      return "Installing Chromium; the progress shows below.";
    }));
    return b;
  };

  const drawInstall = () => {
    const i = state.install;
    if (!i) return fill(install);
    fill(install, h("h3", {}, i.running ? "Installing…" : i.error ? "The install failed" : "Installed"),
      h("p", { class: "meta" }, `Started ${clock(i.started)}`),
      i.error && h("p", { class: "said bad" }, i.error.message),
      h("pre", { class: "log" }, i.lines.join("\n")));
    if (i.done) void load();
  };

  void load();
  drawInstall();
  return subscribe((t) => { if (t === "install") drawInstall(); if (t === "sessions") void load(); });
}

const labelOf = (s: BrowserSettings) => s.modes.find((m) => m.name === s.mode)?.label ?? s.mode;
