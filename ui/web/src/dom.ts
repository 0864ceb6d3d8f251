// A tiny helper for building DOM: h("p", {class: "x"}, "text", child).
type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | EventListener | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v as EventListener);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
}

// fill replaces el's children.
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

// time prints a moment as the owner's clock shows it, with seconds.
export function clock(iso: string): string {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// until says how long until iso, in words.
export function until(iso: string, now = Date.now()): string {
  const ms = new Date(iso).getTime() - now;
  if (isNaN(ms)) return "";
  if (ms <= 0) return "expired";
  const min = Math.floor(ms / 60000);
  if (min < 1) return "expires in under a minute";
  return `expires in ${min} min`;
}

export function jpeg(base64: string): string { return "data:image/jpeg;base64," + base64; }

// pin is the small pin icon of a pinned tab.
export function pin(): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "pin");
  svg.setAttribute("aria-label", "pinned");
  svg.setAttribute("role", "img");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M5 1h6l-1 5 3 3H9l-1 6-1-6H3l3-3z");
  svg.appendChild(path);
  return svg;
}
