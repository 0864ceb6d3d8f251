// Tasks and approvals (#/tasks): the decisions waiting for the owner, a
// way to start a task for an agent, and the tasks so far.
import { get, post } from "../api";
import { clock, fill, h } from "../dom";
import { act } from "../notice";
import { approvalCard } from "../parts/approval";
import { href, type Page } from "../router";
import { state, subscribe } from "../store";
import type { AgentView, TaskView } from "../types";

export const tasksPage: Page = (root) => {
  const waiting = h("div", { class: "waiting" });
  const all = h("div", { class: "tasks" });
  root.append(h("h1", {}, "Tasks"), h("h2", {}, "Waiting for you"), waiting, startForm(), h("h2", {}, "Tasks so far"), all);
  const draw = () => {
    const cards: Node[] = [];
    for (const t of state.tasks.values()) if (t.state === "pending") cards.push(taskRequest(t));
    for (const r of state.approvals.values()) cards.push(approvalCard(r));
    fill(waiting, cards.length ? cards : h("p", { class: "empty" }, "Nothing waits for you."));
    const tasks = [...state.tasks.values()].sort((a, b) => b.created.localeCompare(a.created));
    fill(all, tasks.length ? h("ul", { class: "task-list" }, tasks.map((t) => h("li", {},
      h("a", { href: href("chat", t.agent, t.conversation) }, `${t.agent} · ${t.conversation}`),
      h("span", { class: "badge " + t.state }, t.state), h("p", {}, t.endReason || t.description))))
      : h("p", { class: "empty" }, "No tasks yet."));
  };
  draw();
  return subscribe((topic) => { if (topic === "tasks" || topic === "approvals") draw(); });
};

function taskRequest(t: TaskView): HTMLElement {
  const said = h("p", { class: "said", "aria-live": "polite" });
  const decide = (accept: boolean) => {
    const b: HTMLButtonElement = h("button", { type: "button", class: accept ? "primary" : "danger" }, accept ? "Accept" : "Refuse");
    b.addEventListener("click", () => void act(b, said, async () => {
      await post("/api/tasks/decide", { conversation: t.conversation, accept });
      return accept ? `Accepted: ${t.agent} has ${t.maxSteps} steps in ${t.conversation}.` : `Refused: ${t.agent} is told not to ask again for this.`;
    }));
    return b;
  };
  return h("article", { class: "card task-request", "data-conversation": t.conversation },
    h("h3", {}, `${t.agent} asks for a task`), h("p", {}, t.description),
    h("p", { class: "meta" }, `${t.maxSteps} steps within ${Math.round(t.lifetime / 6e10)} min · ${t.conversation} · ${clock(t.created)}`),
    h("div", { class: "controls" }, decide(true), decide(false)), said);
}

function startForm(): HTMLElement {
  const agent = h("select", { name: "agent", required: true, "aria-label": "Agent" });
  const conv = h("input", { name: "conversation", required: true, value: "c-" + Math.random().toString(36).slice(2, 8),
    pattern: "[A-Za-z0-9][A-Za-z0-9._-]{0,63}", "aria-label": "Conversation" });
  const desc = h("textarea", { name: "description", required: true, rows: 2, maxlength: 2000, "aria-label": "What the agent should do" });
  const steps = h("input", { name: "steps", type: "number", min: 1, max: 80, value: 80, "aria-label": "Steps" });
  const minutes = h("input", { name: "minutes", type: "number", min: 1, max: 20, value: 20, "aria-label": "Minutes" });
  const go: HTMLButtonElement = h("button", { type: "submit", class: "primary" }, "Start the task");
  const said = h("p", { class: "said", "aria-live": "polite" });
  const form = h("form", { class: "card start-task" }, h("h2", {}, "Start a task"),
    h("label", {}, "Agent", agent), h("label", {}, "Conversation", conv), h("label", {}, "What the agent should do", desc),
    h("div", { class: "row" }, h("label", {}, "Steps", steps), h("label", {}, "Minutes", minutes)), go, said);
  get<AgentView[]>("/api/agents").then((list) => {
    fill(agent, list.length ? list.map((a) => h("option", { value: a.name }, a.name)) : h("option", { value: "" }, "No agents yet"));
  }).catch(() => {});
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void act(go, said, async () => {
      const t = await post<TaskView>("/api/tasks", { agent: agent.value, conversation: conv.value, description: desc.value,
        steps: Number(steps.value), minutes: Number(minutes.value) });
      return `Started: ${t.agent} has ${t.maxSteps} steps in ${t.conversation} until ${clock(t.expires)}.`;
    });
  });
  return form;
}
