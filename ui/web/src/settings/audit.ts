// Settings → Audit trail: the newest acts and owner controls, newest
// first, filtered by agent and conversation.
import { get } from "../api";
import { fill, h } from "../dom";
import type { AuditRecord } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "audit", title: "Audit trail", rank: 45, render });

const shown = 200;

function render(root: HTMLElement): () => void {
  const agent: HTMLInputElement = h("input", { name: "agent", placeholder: "any agent", "aria-label": "Agent" });
  const conv: HTMLInputElement = h("input", { name: "conversation", placeholder: "any conversation", "aria-label": "Conversation" });
  const list = h("div", { "aria-live": "polite" });
  const load = () => {
    const q = new URLSearchParams({ limit: String(shown) });
    if (agent.value.trim()) q.set("agent", agent.value.trim());
    if (conv.value.trim()) q.set("conversation", conv.value.trim());
    get<AuditRecord[]>("/api/audit?" + q.toString()).then((lines) => {
      if (lines.length === 0) {
        fill(list, h("p", {}, "No line of the audit trail matches."));
        return;
      }
      fill(list, h("ul", { class: "rows", "data-audit": "" }, lines.reverse().map(line)));
    }).catch((e: Error) => fill(list, h("p", { class: "said" }, e.message)));
  };
  const form = h("form", { class: "filters" }, agent, conv, h("button", { type: "submit" }, "Show"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); load(); });
  root.append(h("p", {}, `Every agent act and owner control, newest first (the last ${shown}); the command buddi audit reads all of it.`), form, list);
  load();
  return () => {};
}

function line(r: AuditRecord): HTMLElement {
  const when = new Date(r.at).toLocaleString();
  const who = [r.agent, r.conversation].filter(Boolean).join(" · ");
  const what = r.action + (r.steps?.length ? ` (${r.steps.join(", ")})` : "") + (r.target ? ` ${r.target}` : "");
  const where = [r.url, r.detail].filter(Boolean).join(" ");
  return h("li", { "data-kind": r.kind, "data-action": r.action },
    h("span", {}, `${when} · ${who || "install"} · ${what} · ${r.code}${where ? " · " + where : ""}`));
}
