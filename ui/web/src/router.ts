// Hash routes: #/browser, #/chat/<agent>/<conversation>[?tab=browser],
// #/tasks, #/settings[/<section>], #/signin/<token>.

export interface Route { name: string; params: string[]; query: URLSearchParams }

// A page fills root and returns what undoes its subscriptions.
export type Page = (root: HTMLElement, route: Route) => () => void;

export function parse(hash: string): Route {
  const raw = hash.replace(/^#\/?/, "");
  const [path, q = ""] = raw.split("?", 2);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { name: parts[0] ?? "browser", params: parts.slice(1), query: new URLSearchParams(q) };
}

// href builds a route's hash.
export function href(...parts: string[]): string {
  return "#/" + parts.map(encodeURIComponent).join("/");
}

// dropQuery takes the query off the current hash without a new history
// entry or a route change (a ?tab=browser is honoured once).
export function dropQuery(): void {
  const [path] = location.hash.split("?", 1);
  history.replaceState(null, "", location.pathname + path);
}
