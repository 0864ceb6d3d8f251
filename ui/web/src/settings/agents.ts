// Settings → Agents: who may use the browser, with what grants.
import { del, get, post } from "../api";
import { clock, fill, h } from "../dom";
import { act } from "../notice";
import type { AgentAdded, AgentView } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "agents", title: "Agents", rank: 30, render });

function render(root: HTMLElement): () => void {
  const list = h("div", {});
  const name = h("input", { name: "name", required: true, pattern: "[a-z][a-z0-9_-]{0,31}", "aria-label": "Agent name", placeholder: "name" });
  const auto = h("input", { type: "checkbox", name: "autoApprove" });
  const add: HTMLButtonElement = h("button", { type: "submit", class: "primary" }, "Add agent");
  const said = h("p", { class: "said", "aria-live": "polite" });
  const token = h("pre", { class: "token", hidden: true });
  const form = h("form", { class: "card" }, h("label", {}, "Name", name),
    h("label", { class: "choice" }, auto, h("span", {}, "Start its task requests without asking me (still capped)")), add, said, token);
  root.append(list, form);
  const row = (a: AgentView) => {
    const said = h("p", { class: "said", "aria-live": "polite" });
    const b: HTMLButtonElement = h("button", { type: "button", class: "danger" }, "Remove");
    b.addEventListener("click", () => void act(b, said, async () => {
      await del("/api/agents/" + encodeURIComponent(a.name));
      void load();
      return `Removed ${a.name}; its token no longer works.`;
    }));
    return h("li", { "data-agent": a.name }, h("span", {}, `${a.name}: ${a.grants.join(", ")}${a.autoApprove ? " · starts tasks without asking" : ""} · added ${clock(a.created)}`), b, said);
  };
  const load = (): Promise<void> => get<AgentView[]>("/api/agents").then((agents) => fill(list, agents.length
    ? h("ul", { class: "rows" }, agents.map(row))
    : h("p", { class: "empty" }, "No agents yet."))).catch(() => {});
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void act(add, said, async () => {
      const a = await post<AgentAdded>("/api/agents", { name: name.value, autoApprove: auto.checked });
      token.hidden = false;
      token.textContent = a.token;
      void load();
      return `Added ${a.name}. Its token is shown once, below: give it to the agent now.`;
    });
  });
  void load();
  return () => {};
}
