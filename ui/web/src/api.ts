// One way to call buddi's owner API: JSON in, the envelope out, the CSRF
// token on every write.
import type { ApiErrorBody } from "./types";

let csrf = "";

export function setCSRF(token: string): void { csrf = token; }

// csrfToken is the page's CSRF token (the hand socket sends it first).
export function csrfToken(): string { return csrf; }

export class ApiError extends Error {
  constructor(readonly code: string, message: string, readonly status: number) { super(message); }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { "Accept": "application/json" };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    headers["X-CSRF-Token"] = csrf;
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("daemon_unreachable", "buddi did not answer; check that it is running, then try again.", 0);
  }
  let env: { ok: boolean; result?: T; error?: ApiErrorBody };
  try {
    env = await res.json();
  } catch {
    throw new ApiError("bad_answer", "buddi gave an answer this page cannot read.", res.status);
  }
  if (!env.ok) {
    const e = env.error ?? { code: "bad_answer", message: "buddi refused without saying why." };
    if (res.status === 401) window.dispatchEvent(new CustomEvent("buddi:signedout", { detail: e.message }));
    throw new ApiError(e.code, e.message, res.status);
  }
  return env.result as T;
}

export const get = <T>(path: string) => call<T>("GET", path);
export const post = <T>(path: string, body: unknown = {}) => call<T>("POST", path, body);
export const del = <T>(path: string) => call<T>("DELETE", path);
