// Settings → Telegram: the bot's state, pairing the owner's chat with a
// one-time link, unpairing, and which conversations the chat follows.
import { del, get, post } from "../api";
import { clock, fill, h } from "../dom";
import { act } from "../notice";
import type { TelegramLink, TelegramView } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "telegram", title: "Telegram", rank: 35, render });

function render(root: HTMLElement): () => void {
  const body = h("div", {});
  root.append(body);
  const load = () => get<TelegramView>("/api/telegram").then(draw).catch((e) => fill(body, h("p", { class: "said bad" }, e.message)));

  const draw = (v: TelegramView) => {
    const said = h("p", { class: "said", "aria-live": "polite" });
    const bot = v.bot;
    if (!bot?.configured) {
      return fill(body, h("p", {}, "No Telegram bot is set up. Create one with @BotFather, start buddi with its token in BUDDI_TELEGRAM_TOKEN, and pair your chat here."));
    }
    const state = h("p", { class: bot.problem && !bot.polling ? "said bad" : "meta" },
      bot.username ? `The bot is @${bot.username}` : "The bot has not reached Telegram yet",
      bot.polling ? " and is listening." : bot.problem ? `: ${bot.problem}` : ".");
    if (!v.paired) {
      const link = h("div", { class: "pair-link" });
      const pair: HTMLButtonElement = h("button", { type: "button" }, "Pair my chat");
      pair.addEventListener("click", () => void act(pair, said, async () => {
        const l = await post<TelegramLink>("/api/telegram/pair");
        fill(link, h("p", {}, "Open this link on your phone and press Start (it works once, until ", clock(l.expires), "):"),
          h("p", {}, h("a", { href: l.link, target: "_blank", rel: "noopener" }, l.link)));
        return "The pairing link is ready.";
      }));
      return fill(body, state, h("p", {}, "No chat is paired."), pair, link, said);
    }
    const unpair: HTMLButtonElement = h("button", { type: "button", class: "danger" }, "Unpair");
    unpair.addEventListener("click", () => void act(unpair, said, async () => {
      await del("/api/telegram/pair");
      void load();
      return "The chat is unpaired; it follows no conversation now.";
    }));
    const conv: HTMLInputElement = h("input", { type: "text", name: "conversation", placeholder: "conversation id", autocomplete: "off" });
    const follow: HTMLButtonElement = h("button", { type: "button" }, "Follow");
    follow.addEventListener("click", () => void act(follow, said, async () => {
      const c = conv.value.trim();
      await post("/api/telegram/bind", { conversation: c });
      void load();
      return `The chat now follows ${c}.`;
    }));
    const rows = v.bound.length === 0 ? h("p", { class: "empty" }, "The chat follows no conversation.") :
      h("ul", { class: "rows" }, v.bound.map((c) => {
        const rowSaid = h("p", { class: "said", "aria-live": "polite" });
        const stop: HTMLButtonElement = h("button", { type: "button" }, "Stop following");
        stop.addEventListener("click", () => void act(stop, rowSaid, async () => {
          await post("/api/telegram/unbind", { conversation: c });
          void load();
          return `${c} is no longer followed.`;
        }));
        return h("li", { "data-conversation": c }, h("span", {}, c), stop, rowSaid);
      }));
    fill(body, state, h("p", {}, `Paired with ${v.name || "chat " + v.chat} since `, clock(v.pairedAt ?? ""), "."), unpair,
      h("h3", {}, "Conversations the chat follows"), rows,
      h("form", { class: "inline", onsubmit: (e: Event) => { e.preventDefault(); follow.click(); } }, conv, follow), said);
  };
  void load();
  return () => {};
}
