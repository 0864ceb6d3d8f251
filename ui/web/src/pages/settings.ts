// Settings (#/settings/<section>).
import { h } from "../dom";
import { href, type Page } from "../router";
import "../settings/agents";
import "../settings/audit";
import "../settings/browser";
import "../settings/devices";
import "../settings/doctor";
import "../settings/privacy";
import "../settings/secrets";
import "../settings/tailnet";
import "../settings/telegram";
import "../settings/yourbrowser";
import { sections } from "../settings/registry";

export const settingsPage: Page = (root, route) => {
  const id = route.params[0] ?? sections[0]?.id;
  const sec = sections.find((s) => s.id === id) ?? sections[0];
  const body = h("div", { class: "section-body" });
  root.append(h("h1", {}, "Settings"),
    h("nav", { class: "subnav", "aria-label": "Settings sections" }, sections.map((s) =>
      h("a", { href: href("settings", s.id), "aria-current": s === sec ? "page" : null }, s.title))),
    h("section", { "aria-label": sec.title }, h("h2", {}, sec.title), body));
  return sec.render(body);
};
