// The hand's pointer input, mouse and thumb. A mouse moves (at most one
// position every 33 ms, always the latest), presses and wheels as it does
// on the page. A finger on a touch screen: a tap clicks where it is, a
// long press is a right click, a one-finger drag scrolls the page (as a
// wheel, at most one step every 33 ms, never coalesced on the way), and
// two fingers pinch to zoom the picture and pan it, for a page that stays
// wider than the screen. The picture is fitted into the stage and drawn
// with a transform, so a point on it maps back to the page through its
// box whatever the zoom.
import type { Header } from "./view";

export type Send = (m: Record<string, unknown>) => void;

interface Deps {
  at: (cx: number, cy: number) => { x: number; y: number } | null;
  send: Send;
  page: () => Header | null;
  afterTap: () => void;
}

const MOVE_EVERY = 33;
const LONG_PRESS = 500;
const SLOP = 8; // CSS px a finger may wander and still tap
const ZOOM_MAX = 4;
const BUTTONS = ["left", "middle", "right"];

interface Point { x: number; y: number }
type Gesture =
  | { kind: "tap" | "drag" | "long"; start: Point; last: Point; timer: number }
  | { kind: "pinch"; d0: number; z0: number; mid0: Point; tx0: number; ty0: number }
  | { kind: "done" };

// gestures wires the stage; layout fits the picture again (a new page
// size, a turned phone), stop lets go of its timers.
export function gestures(stage: HTMLElement, cv: HTMLCanvasElement, d: Deps): { layout: () => void; stop: () => void } {
  let z = 1, tx = 0, ty = 0; // the owner's zoom and pan over the fitted picture
  let fit = { k: 1, left: 0, top: 0 }; // how the picture is fitted into the stage
  const fingers = new Map<number, Point>();
  let g: Gesture | null = null;
  let pending: Point | null = null; // a mouse position not sent yet
  let moveTimer = 0;
  let scroll = { dx: 0, dy: 0, at: null as Point | null };
  let scrollTimer = 0;

  const fitted = () => stage.classList.contains("fitted");
  // layout sizes the picture to the stage (full screen: the stage's box;
  // in a card: the card's width, the picture's own shape).
  const layout = () => {
    const p = d.page();
    if (!p || !fitted()) { cv.style.cssText = ""; return; }
    const sw = stage.clientWidth, sh = stage.clientHeight;
    const k = Math.min(sw / p.width, sh / p.height);
    fit = { k, left: Math.max(0, (sw - p.width * k) / 2), top: 0 };
    cv.style.width = `${p.width * k}px`;
    cv.style.height = `${p.height * k}px`;
    clampPan();
    apply();
  };
  const apply = () => {
    cv.style.transform = `translate(${fit.left + tx}px, ${fit.top + ty}px) scale(${z})`;
  };
  // clampPan keeps the zoomed picture over the stage: centred across when
  // narrower, never past an edge when wider.
  const clampPan = () => {
    const p = d.page();
    if (!p) return;
    const w = p.width * fit.k * z, ht = p.height * fit.k * z;
    const sw = stage.clientWidth, sh = stage.clientHeight;
    const x0 = w <= sw ? (sw - w) / 2 : Math.min(0, Math.max(sw - w, fit.left + tx));
    const y0 = ht <= sh ? 0 : Math.min(0, Math.max(sh - ht, fit.top + ty));
    tx = x0 - fit.left;
    ty = y0 - fit.top;
  };

  // The mouse, as on the page itself.
  const flushMove = () => {
    moveTimer = 0;
    if (pending) { d.send({ t: "move", ...pending }); pending = null; moveTimer = window.setTimeout(flushMove, MOVE_EVERY); }
  };
  const mouse = (e: PointerEvent) => {
    const p = d.at(e.clientX, e.clientY);
    if (!p) return;
    if (e.type === "pointermove") {
      pending = p;
      if (!moveTimer) flushMove();
      return;
    }
    pending = null; // a press carries its own position
    e.preventDefault();
    if (e.type === "pointerdown") { cv.focus(); cv.setPointerCapture(e.pointerId); }
    d.send({ t: e.type === "pointerdown" ? "down" : "up", ...p, b: BUTTONS[e.button] ?? "left" });
  };
  const wheel = (e: WheelEvent) => {
    const p = d.at(e.clientX, e.clientY);
    if (!p) return;
    e.preventDefault();
    const k = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    pending = null;
    d.send({ t: "wheel", ...p, dx: clamp(e.deltaX * k), dy: clamp(e.deltaY * k) });
  };

  // The thumb.
  const click = (at: Point, button: "left" | "right") => {
    const p = d.at(at.x, at.y);
    if (!p) return;
    d.send({ t: "down", ...p, b: button });
    d.send({ t: "up", ...p, b: button });
  };
  const flushScroll = () => {
    scrollTimer = 0;
    if (!scroll.at || (scroll.dx === 0 && scroll.dy === 0)) return;
    const p = d.at(scroll.at.x, scroll.at.y);
    if (p) d.send({ t: "wheel", ...p, dx: clamp(scroll.dx), dy: clamp(scroll.dy) });
    scroll = { dx: 0, dy: 0, at: scroll.at };
    scrollTimer = window.setTimeout(flushScroll, MOVE_EVERY);
  };
  const drag = (from: Point, to: Point) => {
    const per = fit.k * z; // screen px per page px
    scroll.dx += (from.x - to.x) / per;
    scroll.dy += (from.y - to.y) / per;
    if (!scrollTimer) flushScroll();
  };
  const pinchOf = (): Gesture => {
    const [a, b] = [...fingers.values()];
    return { kind: "pinch", d0: dist(a, b), z0: z, mid0: mid(a, b), tx0: tx, ty0: ty };
  };
  const down = (e: PointerEvent) => {
    e.preventDefault();
    stage.setPointerCapture(e.pointerId);
    const p = { x: e.clientX, y: e.clientY };
    fingers.set(e.pointerId, p);
    if (g && g.kind !== "pinch" && g.kind !== "done") clearTimeout(g.timer);
    if (fingers.size === 1) {
      const timer = window.setTimeout(() => {
        if (g?.kind === "tap") { g = { ...g, kind: "long" }; click(g.start, "right"); }
      }, LONG_PRESS);
      g = { kind: "tap", start: p, last: p, timer };
    } else if (fingers.size === 2) {
      g = pinchOf();
    }
  };
  const move = (e: PointerEvent) => {
    const p = fingers.get(e.pointerId);
    if (!p || !g) return;
    const now = { x: e.clientX, y: e.clientY };
    fingers.set(e.pointerId, now);
    if (g.kind === "pinch" && fingers.size === 2) {
      const [a, b] = [...fingers.values()];
      const r = stage.getBoundingClientRect();
      const m = mid(a, b);
      z = Math.min(ZOOM_MAX, Math.max(1, g.z0 * dist(a, b) / g.d0));
      // The picture's point under the fingers' middle stays under it.
      const ox = g.mid0.x - r.left - fit.left, oy = g.mid0.y - r.top - fit.top;
      tx = m.x - r.left - fit.left - (ox - g.tx0) * z / g.z0;
      ty = m.y - r.top - fit.top - (oy - g.ty0) * z / g.z0;
      clampPan();
      apply();
      return;
    }
    if (g.kind === "tap" && dist(g.start, now) > SLOP) {
      clearTimeout(g.timer);
      g = { ...g, kind: "drag" };
      scroll.at = g.start;
    }
    if (g.kind === "drag") {
      drag(g.last, now);
      g.last = now;
    }
  };
  const up = (e: PointerEvent) => {
    if (!fingers.delete(e.pointerId) || !g) return;
    if (g.kind === "tap") {
      clearTimeout(g.timer);
      click(g.start, "left");
      d.afterTap();
    }
    if (g.kind === "drag") flushScroll();
    // A pinch that loses a finger is over; the other finger does nothing
    // until it lifts too.
    g = fingers.size === 0 ? null : { kind: "done" };
  };

  const route = (f: (e: PointerEvent) => void) => (e: PointerEvent) => {
    if (e.pointerType === "touch") f(e);
    else if (e.target === cv) mouse(e);
  };
  stage.addEventListener("pointerdown", route(down));
  stage.addEventListener("pointermove", route(move));
  stage.addEventListener("pointerup", route(up));
  stage.addEventListener("pointercancel", (e) => { if (e.pointerType === "touch") up(e); });
  cv.addEventListener("wheel", wheel, { passive: false });
  return {
    layout,
    stop: () => {
      clearTimeout(moveTimer);
      clearTimeout(scrollTimer);
      if (g && g.kind !== "pinch" && g.kind !== "done") clearTimeout(g.timer);
    },
  };
}

const clamp = (d: number) => Math.max(-5000, Math.min(5000, d));
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y) || 1;
const mid = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
