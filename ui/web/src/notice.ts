// The one place a control says what happened: a polite live region at the
// bottom of the screen, and a sentence beside the control itself.
import { ApiError } from "./api";
import { h } from "./dom";

let region: HTMLElement | null = null;

export function noticeRegion(): HTMLElement {
  region = h("div", { class: "notice", role: "status", "aria-live": "polite" });
  return region;
}

export function notify(text: string, bad = false): void {
  if (!region) return;
  region.textContent = text;
  region.className = "notice show" + (bad ? " bad" : "");
  const mine = text;
  setTimeout(() => {
    if (region?.textContent !== mine) return;
    region.className = "notice";
    // Faded, the sentence leaves the status region too: a screen reader
    // that reads the region later finds nothing, not a state that passed.
    setTimeout(() => { if (region?.textContent === mine && !region.classList.contains("show")) region.textContent = ""; }, 300);
  }, 6000);
}

// act runs a control: the button waits, then the sentence of what happened
// (or why not) shows beside it; in the notice only when there is no line
// beside it to read (the control's card went away with the answer). One
// sentence shows once.
export async function act(button: HTMLButtonElement | null, out: HTMLElement | null, run: () => Promise<string>): Promise<boolean> {
  if (button) button.disabled = true;
  try {
    const said = await run();
    say(out, said, false);
    return true;
  } catch (e) {
    say(out, e instanceof ApiError ? e.message : String(e), true);
    return false;
  } finally {
    if (button) button.disabled = false;
  }
}

// A state line is the sentence beside controls that change a state (a
// session taken over, every browser stopped). The control that succeeded
// tells it which states its sentence holds for (holds); the page tells it
// each state it shows (shows). Once the state has been one the sentence
// holds for and then is not (another surface changed it: the CLI,
// Telegram, another tab; or the agent's next act), the sentence goes, so
// the line never says a state that no longer holds. The state may show
// before the control's answer comes or after it; and it may never show,
// when the page missed it (its socket dropped, or buddi sent a fresh
// hello in place of events it could not queue) and it had changed again
// meanwhile: a sentence whose state has not shown within stateShowsIn of
// the answer goes too.
export interface StateLine {
  el: HTMLElement;
  holds: (fits: ((state: string) => boolean) | null) => void;
  shows: (state: string) => void;
}

const stateShowsIn = 5000;

export function stateLine(): StateLine {
  const el = h("p", { class: "said", "aria-live": "polite" });
  let now = "";
  let fits: ((state: string) => boolean) | null = null;
  let held = false;
  let sentences = 0; // counts them: a wait is for its own sentence
  const clear = () => {
    el.textContent = "";
    el.className = "said";
    fits = null;
  };
  return {
    el,
    holds: (f) => {
      fits = f;
      held = !!f && f(now);
      const mine = ++sentences;
      if (!f || held) return;
      setTimeout(() => { if (sentences === mine && fits && !held) clear(); }, stateShowsIn);
    },
    shows: (state) => {
      now = state;
      if (!fits) return;
      if (fits(state)) {
        held = true;
        return;
      }
      if (held) clear();
    },
  };
}

function say(out: HTMLElement | null, text: string, bad: boolean): void {
  if (out) {
    out.textContent = text;
    out.className = "said" + (bad ? " bad" : "");
  }
  if (!out || !out.isConnected || out.getClientRects().length === 0) {
    notify(text, bad);
    return;
  }
  follow(out, text, bad);
}

// A card often goes away because of what its control did (a task request
// accepted, a site approved), and the event that removes it may come after
// the answer: the sentence said beside the control then follows it out into
// the notice, so it is not lost with the card.
const followFor = 10000;
const said = new Map<HTMLElement, { text: string; bad: boolean; until: number }>();
let watching: MutationObserver | null = null;

function follow(out: HTMLElement, text: string, bad: boolean): void {
  said.set(out, { text, bad, until: Date.now() + followFor });
  if (watching) return;
  watching = new MutationObserver(() => {
    const now = Date.now();
    for (const [el, s] of said) {
      if (el.isConnected && now < s.until) continue;
      said.delete(el);
      if (!el.isConnected && now < s.until && el.textContent === s.text) notify(s.text, s.bad);
    }
    if (said.size === 0 && watching) {
      watching.disconnect();
      watching = null;
    }
  });
  watching.observe(document.body, { childList: true, subtree: true });
}
