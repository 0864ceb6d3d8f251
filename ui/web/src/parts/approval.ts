// A site request as a card: Once, Always or Reject.
import { post } from "../api";
import { clock, h } from "../dom";
import { act } from "../notice";
import type { SiteRequest } from "../types";

const answers: [string, string, string][] = [
  ["once", "Once", "for this conversation"], ["always", "Always", "for every conversation, until you revoke it"], ["reject", "Reject", "and the agent is told not to ask again here"],
];

export function approvalCard(r: SiteRequest): HTMLElement {
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
