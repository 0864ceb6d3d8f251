// Settings → Your browser: whether the buddi extension is in this browser
// (asked every three seconds while the section shows), installing it, and
// pairing it with the code its popup shows.
import { ApiError, get, post } from "../api";
import { clock, fill, h } from "../dom";
import { act } from "../notice";
import { state } from "../store";
import type { BrowserSettings, ExtensionStatus, ExtensionView } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "yourbrowser", title: "Your browser", rank: 15, render });

const storeListing = "https://chromewebstore.google.com/detail/pbfpjefkiijjgefblpnlnlpmeaddfbah";
const askEvery = 3000; // ms between two questions to the extension
const answerWait = 2000; // ms an unanswered question is given

// What this page learnt of the extension the last time it asked.
type Found =
  | { kind: "asking" }
  | { kind: "absent" }
  | { kind: "found"; status: ExtensionStatus }
  | { kind: "elsewhere"; address: string }; // aimed at another buddi address

function render(root: HTMLElement): () => void {
  const body = h("div", { class: "yourbrowser" });
  root.append(body);
  let alive = true;
  let timer = 0;
  const stop = () => { alive = false; window.clearTimeout(timer); };
  get<BrowserSettings>("/api/settings/browser").then((s) => {
    if (!alive) return;
    if (s.mode !== "extension") return fill(body, other(s));
    const panel = new Panel(body);
    const loop = async () => {
      await panel.ask();
      if (alive) timer = window.setTimeout(() => void loop(), askEvery);
    };
    void panel.load().then(() => { if (alive) void loop(); });
  }).catch((e) => fill(body, h("p", { class: "said bad" }, e.message ?? String(e))));
  return stop;
}

// other is the one line shown while another mode is chosen.
function other(s: BrowserSettings): HTMLElement {
  const label = s.modes.find((m) => m.name === s.mode)?.label ?? s.mode;
  return h("p", { class: "note" }, `Agents use ${label} now. To have them work in your own Chrome, choose Your browser under `,
    h("a", { href: "#/settings/browser" }, "Computer & browser"), " (with no session open).");
}

class Panel {
  private view: ExtensionView = { paired: false, connected: false, accepted: [] };
  private found: Found = { kind: "asking" };
  private seen = ""; // the last answer, to reload the pairing when it changes
  private filled = ""; // the code this page filled in itself
  private readonly foundLine = h("div", { class: "found", "aria-live": "polite" });
  private readonly install = h("div", { class: "install" });
  private readonly pairing = h("div", {});
  private readonly said = h("p", { class: "said", "aria-live": "polite" });
  private readonly code: HTMLInputElement = h("input", { type: "text", name: "code", inputmode: "numeric", autocomplete: "one-time-code",
    maxlength: 6, placeholder: "six digits", "aria-label": "Pairing code" });
  private readonly codeNote = h("p", { class: "note", "aria-live": "polite" });

  constructor(body: HTMLElement) {
    fill(body, this.foundLine, this.install, h("fieldset", { class: "pair" }, h("legend", {}, "Pair your browser"), this.pairing, this.said));
    this.drawFound();
  }

  async load(): Promise<void> {
    try {
      this.view = await get<ExtensionView>("/api/extension");
    } catch (e) {
      this.said.textContent = e instanceof ApiError ? e.message : String(e);
      this.said.className = "said bad";
    }
    this.drawPairing();
    this.drawInstall();
  }

  // ask asks each accepted id for its status and shows what answered.
  async ask(): Promise<void> {
    const answers = await Promise.all(this.view.accepted.map(status));
    const ok = answers.find((a) => a?.ok);
    const away = answers.find((a) => a?.error === "other_address");
    this.found = ok ? { kind: "found", status: ok } : away ? { kind: "elsewhere", address: away.address ?? "" } : { kind: "absent" };
    const seen = JSON.stringify(ok ?? away ?? null);
    if (seen !== this.seen) {
      this.seen = seen;
      this.fillCode(ok?.code ?? "");
      await this.load();
    }
    this.drawFound();
  }

  private drawFound(): void {
    const f = this.found;
    const where = place();
    if (f.kind === "asking") return fill(this.foundLine, h("p", { class: "meta" }, "Looking for the buddi extension in this browser…"));
    if (f.kind === "elsewhere") {
      return fill(this.foundLine, h("p", { class: "bad" }, `Extension found, but it points at buddi at ${f.address}, not at this one (${location.host}). `,
        `Open the extension's popup and change buddi's address to ${location.host}.`));
    }
    if (f.kind === "found") {
      const v = f.status.version ?? "";
      const ours = chromeVersion(state.version);
      return fill(this.foundLine, h("p", { class: "ok" }, `Extension found, version ${v}.`),
        ours && v && ours !== v && h("p", { class: "note" }, `This buddi is ${state.version} (${ours} as Chrome numbers it), so the extension is a different version; update the older one.`));
    }
    if (where === "phone") return fill(this.foundLine, h("p", { class: "note" }, "The extension runs in Chrome on a computer; install it there. You can still pair it from here with the code it shows."));
    if (where === "other") return fill(this.foundLine, h("p", { class: "bad" }, "The buddi extension needs Chrome, Edge, Brave or Arc; this browser cannot run it."));
    fill(this.foundLine, h("p", { class: "bad" }, "The buddi extension is not installed in this browser."));
  }

  private drawInstall(): void {
    if (this.found.kind !== "absent" || place() !== "chromium") return fill(this.install);
    const folder = this.view.folder;
    fill(this.install,
      h("a", { class: "button primary", href: storeListing, target: "_blank", rel: "noopener" }, "Add to Chrome"),
      h("details", {}, h("summary", {}, "Developer install"),
        h("ol", {},
          h("li", {}, "Open chrome://extensions in this browser."),
          h("li", {}, "Turn on Developer mode."),
          h("li", {}, "Choose Load unpacked and pick this folder:",
            folder ? h("code", { class: "folder" }, folder)
              : h("span", { class: "bad" }, " it was not found next to buddi (buddi looks for <install root>/extension); use the extension folder of buddi's source.")))));
  }

  private drawPairing(): void {
    const v = this.view;
    const ext = this.found.kind === "found" ? this.found.status : null;
    if (v.paired) {
      const forget: HTMLButtonElement = h("button", { type: "button", class: "danger" }, "Forget this browser");
      forget.addEventListener("click", () => void act(forget, this.said, async () => {
        this.view = await post<ExtensionView>("/api/extension/forget");
        this.drawPairing();
        return "This browser is forgotten: its connection is closed, and the extension asks to pair again.";
      }));
      return fill(this.pairing,
        h("p", { class: "ok" }, ext?.paired ? "This browser is already paired with buddi." : "A browser is paired with buddi.",
          ` It is ${v.connected ? "connected now" : "not connected now"}; paired at ${clock(v.pairedAt ?? "")}${v.build ? `, extension ${v.build}` : ""}.`),
        forget);
    }
    const pair: HTMLButtonElement = h("button", { type: "submit", class: "primary" }, "Pair");
    const submit = () => void act(pair, this.said, async () => {
      const code = this.code.value.trim();
      if (!/^\d{6}$/.test(code)) throw new ApiError("wrong_code", "The pairing code is the six digits the extension shows.", 0);
      this.view = await post<ExtensionView>("/api/extension/pair", { code });
      this.code.value = "";
      this.filled = "";
      fill(this.codeNote);
      this.drawPairing();
      return "Paired: agents can work in this browser now.";
    });
    fill(this.pairing,
      h("p", {}, "Press Connect in the extension's popup: it shows a six-digit code for five minutes. Type it here; in the same Chrome this page fills it in for you."),
      h("form", { class: "pair-code", onsubmit: (e: Event) => { e.preventDefault(); submit(); } }, this.code, pair),
      this.codeNote);
  }

  // fillCode puts the code the extension shows into the field, unless the
  // owner has typed something else there.
  private fillCode(code: string): void {
    if (!code || code === this.code.value) return;
    if (this.code.value.trim() !== "" && this.code.value !== this.filled) return;
    this.code.value = code;
    this.filled = code;
    this.codeNote.textContent = "The extension in this browser shows this code; press Pair.";
  }
}

// status asks the extension with this id what it knows; null when no
// extension with that id answers in this browser.
function status(id: string): Promise<ExtensionStatus | null> {
  const rt = (window as unknown as { chrome?: { runtime?: Runtime } }).chrome?.runtime;
  if (!rt?.sendMessage) return Promise.resolve(null);
  return new Promise((resolve) => {
    const timer = window.setTimeout(() => resolve(null), answerWait);
    try {
      rt.sendMessage(id, { type: "buddi.status" }, (r: unknown) => {
        window.clearTimeout(timer);
        void rt.lastError; // read, so Chrome does not log it as unchecked
        resolve(r && typeof r === "object" ? r as ExtensionStatus : null);
      });
    } catch {
      window.clearTimeout(timer);
      resolve(null);
    }
  });
}

interface Runtime {
  sendMessage: (id: string, m: unknown, reply: (r: unknown) => void) => void;
  lastError?: unknown;
}

// place is where this page runs: a phone (nothing to install), a browser
// the extension needs (Chrome, Edge, Brave, Arc), or another one.
function place(): "phone" | "chromium" | "other" {
  const ua = navigator.userAgent;
  if (/Android|iPhone|iPad|iPod|Mobile/i.test(ua)) return "phone";
  return /Chrome\/|Chromium\/|Edg\//.test(ua) && !/Firefox\//.test(ua) ? "chromium" : "other";
}

// chromeVersion writes buddi's version as the four integers Chrome gives
// the extension (0.1.0-pre.24 is 0.1.0.24), as extension.ChromeVersion
// does; "" when it cannot.
export function chromeVersion(v: string): string {
  v = v.trim().replace(/^v/, "");
  const dash = v.indexOf("-");
  const core = dash < 0 ? v : v.slice(0, dash);
  const pre = dash < 0 ? "" : v.slice(dash + 1);
  const parts = core.split(".");
  if (parts.length !== 3) return "";
  const dot = pre.lastIndexOf(".");
  parts.push(dot < 0 ? "0" : pre.slice(dot + 1));
  return parts.every((p) => /^(0|[1-9]\d{0,4})$/.test(p) && Number(p) <= 65535) ? parts.join(".") : "";
}
