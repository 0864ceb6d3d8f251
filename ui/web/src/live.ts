// The events socket: one WebSocket that pushes frames, reopened after a
// drop with a growing wait; every (re)connection starts with a hello that
// carries the whole state, so nothing is missed across a drop.
import { apply, setConnected } from "./store";
import type { Frame } from "./types";

const signedOut = 4401;
let socket: WebSocket | null = null;
let wait = 500;
let stopped = false;

export function connect(): void {
  stopped = false;
  open();
}

export function disconnect(): void {
  stopped = true;
  socket?.close();
  socket = null;
}

function open(): void {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/events";
  const ws = new WebSocket(url);
  socket = ws;
  ws.onmessage = (m) => {
    wait = 500;
    let f: Frame;
    try { f = JSON.parse(m.data as string); } catch { return; }
    if (f.type === "hello") setConnected(true);
    apply(f);
  };
  ws.onclose = (ev) => {
    if (socket !== ws) return;
    socket = null;
    setConnected(false);
    if (ev.code === signedOut) {
      window.dispatchEvent(new CustomEvent("buddi:signedout", { detail: ev.reason }));
      return;
    }
    if (!stopped) {
      setTimeout(() => { if (!stopped && !socket) open(); }, wait);
      wait = Math.min(wait * 2, 8000);
    }
  };
}
