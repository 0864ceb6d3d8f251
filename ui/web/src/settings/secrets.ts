// Settings → Secrets: the owner's own secrets, which an agent may type
// into a page of the origins each is for (secret_fill) without ever
// reading it. Names and origins are listed; a value is only ever sent.
import { get, post } from "../api";
import { fill, h } from "../dom";
import { act } from "../notice";
import { registerSection } from "./registry";

registerSection({ id: "secrets", title: "Secrets", rank: 25, render });

interface SecretInfo { name: string; origins: string[] }
interface SecretList { secrets: SecretInfo[] }

function render(root: HTMLElement): () => void {
  const list = h("div", { "aria-live": "polite" });
  const show = (l: SecretList) => {
    if (l.secrets.length === 0) {
      fill(list, h("p", { class: "empty" }, "No secret yet. An agent can fill only the secrets you add here, and only on their origins."));
      return;
    }
    fill(list, h("ul", { class: "rows" }, l.secrets.map((s) => {
      const said = h("p", { class: "said", "aria-live": "polite" });
      const b: HTMLButtonElement = h("button", { type: "button", class: "danger" }, "Remove");
      b.addEventListener("click", () => void act(b, said, async () => {
        show(await post<SecretList>("/api/secrets/remove", { name: s.name }));
        return `${s.name} is removed.`;
      }));
      return h("li", { "data-secret": s.name }, h("span", {}, `${s.name} · for ${s.origins.join(", ")}`), b, said);
    })));
  };
  const name: HTMLInputElement = h("input", { name: "name", required: true, placeholder: "github-password", "aria-label": "Name", autocomplete: "off" });
  const origins: HTMLInputElement = h("input", { name: "origins", required: true, placeholder: "https://github.com", "aria-label": "Origins, separated by spaces", autocomplete: "off", inputmode: "url" });
  const value: HTMLInputElement = h("input", { name: "value", type: "password", required: true, placeholder: "the value (never shown again)", "aria-label": "Value", autocomplete: "new-password" });
  const go: HTMLButtonElement = h("button", { type: "submit", class: "primary" }, "Add secret");
  const said = h("p", { class: "said", "aria-live": "polite" });
  const form = h("form", { class: "secret-form" }, name, origins, value, go);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void act(go, said, async () => {
      const l = await post<SecretList>("/api/secrets", { name: name.value, origins: origins.value.split(/[\s,]+/).filter(Boolean), value: value.value });
      const added = name.value.trim();
      value.value = ""; // the value leaves the page once sent
      name.value = "";
      origins.value = "";
      show(l);
      return `${added} is kept; agents see its name and origins, never its value.`;
    });
  });
  root.append(h("p", {}, "Secrets an agent may type into a page of the origins each is for, without reading them: they never appear in an observation, a record or a log. The command buddi secret manages them from a terminal too."), form, said, list);
  get<SecretList>("/api/secrets").then(show).catch((e: Error) => fill(list, h("p", { class: "said bad" }, e.message)));
  return () => {};
}
