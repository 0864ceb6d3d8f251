// The owner's dashboard: sign-in, then the Host browser page, the
// conversation views, tasks and approvals, and settings, all kept current
// by the events socket.
import "./style.css";
import { ApiError, get, post, setCSRF } from "./api";
import { registerLiveView } from "./canvas/browserTab";
import { handView } from "./canvas/hand";
import { fill, h } from "./dom";
import { connect, disconnect } from "./live";
import { noticeRegion } from "./notice";
import { browserPage } from "./pages/browser";
import { chatPage } from "./pages/chat";
import { settingsPage } from "./pages/settings";
import { signinPage } from "./pages/signin";
import { tasksPage } from "./pages/tasks";
import { parse, type Page } from "./router";
import { pendingCount, state, subscribe } from "./store";
import type { Me } from "./types";

const pages: Record<string, Page> = {
  browser: browserPage, chat: chatPage, tasks: tasksPage, settings: settingsPage,
};

let me: Me | null = null;
let leave: () => void = () => {};
const main = h("main", { id: "main" });
const nav = h("nav", { class: "rail", "aria-label": "Sections" });
const banner = h("div", { class: "banner", role: "status" });

async function boot(): Promise<void> {
  registerLiveView(handView);
  document.body.append(h("div", { class: "app" }, nav, banner, main), noticeRegion());
  window.addEventListener("hashchange", route);
  window.addEventListener("buddi:signedout", () => { me = null; disconnect(); route(); });
  subscribe((t) => { if (t === "connection" || t === "stop") showBanner(); if (t === "tasks" || t === "approvals") showNav(); });
  const r = parse(location.hash);
  if (r.name === "signin" && r.params[0]) {
    await signIn(r.params[0]);
    return;
  }
  await whoAmI();
  route();
}

async function whoAmI(): Promise<void> {
  try {
    me = await get<Me>("/api/session");
    setCSRF(me.csrf);
    connect();
  } catch (e) {
    me = null;
    if (!(e instanceof ApiError) || e.status !== 401) fill(banner, "buddi did not answer; reload the page once it runs.");
  }
}

async function signIn(token: string): Promise<void> {
  try {
    me = await post<Me>("/api/session", { token });
    setCSRF(me.csrf);
    history.replaceState(null, "", location.pathname + "#/browser");
    connect();
  } catch (e) {
    history.replaceState(null, "", location.pathname + "#/signin");
    sessionStorage.setItem("buddi.signin", e instanceof ApiError ? e.message : String(e));
  }
  route();
}

function route(): void {
  leave();
  const r = parse(location.hash);
  showNav();
  showBanner();
  if (!me) {
    leave = signinPage(main, r);
    return;
  }
  const page = pages[r.name] ?? browserPage;
  main.replaceChildren();
  leave = page(main, r);
}

function showNav(): void {
  if (!me) {
    nav.replaceChildren(h("span", { class: "brand" }, "buddi"));
    return;
  }
  const current = parse(location.hash).name;
  const n = pendingCount();
  const link = (name: string, label: string, extra?: Node | false) =>
    h("a", { href: "#/" + name, class: "nav-link", "aria-current": current === name ? "page" : null }, label, extra);
  fill(nav, h("span", { class: "brand" }, "buddi"),
    link("browser", "Host browser"),
    link("tasks", "Tasks", n > 0 && h("span", { class: "count", "aria-label": `${n} waiting` }, String(n))),
    link("settings", "Settings"));
}

function showBanner(): void {
  const lines: Node[] = [];
  if (me && state.ready && !state.connected) lines.push(h("p", { class: "warn" }, "Connection lost; reconnecting…"));
  // The Host browser page's own box says it, with the button: not twice there.
  if (state.stop.stopped && parse(location.hash).name !== "browser") {
    lines.push(h("p", { class: "stopped" }, "All browser access is stopped. Resume access on the Host browser page."));
  }
  fill(banner, ...lines);
}

void boot();
