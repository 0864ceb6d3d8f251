// Settings → Signed-in devices, each with "Sign out this device". A device
// the tailnet signed in is named by its node and tailnet login (and
// marked data-tailnet); signing it out takes that login off the owner's
// list too.
import { get, post } from "../api";
import { clock, fill, h } from "../dom";
import { act } from "../notice";
import type { DeviceView } from "../types";
import { registerSection } from "./registry";

registerSection({ id: "devices", title: "Signed-in devices", rank: 40, render });

function render(root: HTMLElement): () => void {
  const list = h("div", {});
  root.append(list);
  const load = () => get<DeviceView[]>("/api/devices").then((devs) => fill(list, h("ul", { class: "rows" }, devs.map((d) => {
    const said = h("p", { class: "said", "aria-live": "polite" });
    const b: HTMLButtonElement = h("button", { type: "button", class: "danger" }, "Sign out this device");
    b.addEventListener("click", () => void act(b, said, async () => {
      if (d.current) {
        await post("/api/session/signout");
        window.dispatchEvent(new CustomEvent("buddi:signedout"));
        return "This browser is signed out.";
      }
      await post("/api/devices/signout", { id: d.id });
      void load();
      return `${d.label} is signed out.`;
    }));
    // A tailnet device's label names its node and login already.
    return h("li", { "data-device": d.id, "data-tailnet": d.tailnet?.login }, h("span", {}, `${d.label}${d.current ? " (this browser)" : ""} · signed in ${clock(d.created)} · last seen ${d.lastSeen.startsWith("0001") ? "—" : clock(d.lastSeen)}`), b, said);
  })))).catch(() => {});
  void load();
  return () => {};
}
