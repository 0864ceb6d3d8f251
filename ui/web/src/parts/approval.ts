// A site request, or in Use my apps an app request, as a card: Once, Always or Reject.
import { post } from "../api";
import { clock, h } from "../dom";
import { act } from "../notice";
import type { SiteRequest } from "../types";

const answers: [string, string, string][] = [
  ["once", "Once", "for this conversation"], ["always", "Always", "for every conversation, until you revoke it"], ["reject", "Reject", "and the agent is told not to ask again here"],
];

const appAnswers: [string, string, string][] = [
  ["once", "Once", "for this conversation only"], ["always", "Always", "and added to the allowed apps in Settings (with 32 there already, for this conversation only)"], ["reject", "Reject", "for this conversation"],
];

export function approvalCard(r: SiteRequest): HTMLElement {
  if (r.app) return appCard(r, r.app);
  const said = h("p", { class: "said", "aria-live": "polite" });
  const buttons = answers.map(([decision, label, why]) => {
    const b: HTMLButtonElement = h("button", { type: "button", class: decision === "reject" ? "danger" : decision === "once" ? "primary" : "" }, label);
    b.addEventListener("click", () => void act(b, said, async () => {
      await post("/api/approvals", { conversation: r.conversation, site: r.site, decision });
      for (const x of buttons) x.disabled = true;
      return decision === "reject" ? `Rejected ${r.site} ${why}.` : `Allowed ${r.site} ${why}; the agent may navigate again.`;
    }));
    return b;
  });
  return h("article", { class: "card approval", "data-site": r.site },
    h("h3", {}, `May ${r.agent} open ${r.site}?`),
    h("p", { class: "url" }, r.url), h("p", { class: "meta" }, `Asked at ${clock(r.at)} in ${r.conversation}`),
    h("div", { class: "controls" }, ...buttons), said);
}

// appCard asks about an app off the owner's list, naming the agent and the
// app's id as found on this computer.
function appCard(r: SiteRequest, app: string): HTMLElement {
  const said = h("p", { class: "said", "aria-live": "polite" });
  const buttons = appAnswers.map(([decision, label, why]) => {
    const b: HTMLButtonElement = h("button", { type: "button", class: decision === "reject" ? "danger" : decision === "once" ? "primary" : "" }, label);
    b.addEventListener("click", () => void act(b, said, async () => {
      await post("/api/approvals", { conversation: r.conversation, site: r.site, decision });
      for (const x of buttons) x.disabled = true;
      return decision === "reject" ? `Rejected ${app} ${why}.` : `Allowed ${app} ${why}; the agent may open it again.`;
    }));
    return b;
  });
  return h("article", { class: "card approval", "data-site": r.site },
    h("h3", {}, `Use ${r.appName || app} on your computer?`),
    h("p", { class: "meta" }, `${r.agent} asked to open the app ${app} at ${clock(r.at)} in ${r.conversation}`),
    h("div", { class: "controls" }, ...buttons), said);
}
