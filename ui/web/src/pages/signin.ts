// The page a browser that is not signed in sees.
import { h } from "../dom";
import type { Page } from "../router";

export const signinPage: Page = (root) => {
  const why = sessionStorage.getItem("buddi.signin");
  sessionStorage.removeItem("buddi.signin");
  root.replaceChildren(h("section", { class: "card signin" },
    h("h1", {}, "Sign in to buddi"),
    why && h("p", { class: "said bad" }, why),
    h("p", {}, "Open the sign-in link that `buddi serve` printed when it started. Each link works once, for 15 minutes."),
    h("p", {}, "For a new link, run this on the computer buddi runs on:"),
    h("pre", {}, "buddi open")));
  return () => {};
};
