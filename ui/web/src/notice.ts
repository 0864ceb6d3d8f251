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
  setTimeout(() => { if (region && region.textContent === mine) region.className = "notice"; }, 6000);
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

function say(out: HTMLElement | null, text: string, bad: boolean): void {
  if (out) {
    out.textContent = text;
    out.className = "said" + (bad ? " bad" : "");
  }
  if (!out || !out.isConnected || out.getClientRects().length === 0) notify(text, bad);
}
