// The "Follow on Telegram" switch of a conversation: shown only while a
// Telegram chat is paired; on, the chat gets a photo of every step.
import { get, post } from "../api";
import { h } from "../dom";
import { notify } from "../notice";
import type { TelegramView } from "../types";

export function followSwitch(conv: string): HTMLElement {
  const box: HTMLInputElement = h("input", { type: "checkbox", name: "follow" });
  const label = h("label", { class: "choice follow", hidden: true }, box, h("span", {}, "Follow on Telegram"));
  void get<TelegramView>("/api/telegram").then((v) => {
    if (!v.paired) return;
    box.checked = v.bound.includes(conv);
    label.hidden = false;
  }).catch(() => {});
  box.addEventListener("change", () => {
    const on = box.checked;
    box.disabled = true;
    post(on ? "/api/telegram/bind" : "/api/telegram/unbind", { conversation: conv })
      .then(() => notify(on ? `Your Telegram chat now follows ${conv}.` : `Your Telegram chat no longer follows ${conv}.`))
      .catch((e: Error) => { box.checked = !on; notify(e.message, true); })
      .finally(() => { box.disabled = false; });
  });
  return label;
}
