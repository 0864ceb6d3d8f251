// Settings → Doctor: `buddi doctor`'s rows.
import { get } from "../api";
import { fill, h } from "../dom";
import type { DoctorRow } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "doctor", title: "Doctor", rank: 50, render });

function render(root: HTMLElement): () => void {
  const list = h("div", {}, h("p", { class: "meta" }, "Checking…"));
  root.append(list);
  get<DoctorRow[]>("/api/doctor").then((rows) => fill(list, h("ul", { class: "rows doctor" }, rows.map((r) =>
    h("li", { class: r.level.toLowerCase() }, h("strong", {}, r.name), h("span", { class: "badge" }, r.level), h("p", {}, r.text))))))
    .catch((e) => fill(list, h("p", { class: "said bad" }, e.message)));
  return () => {};
}
