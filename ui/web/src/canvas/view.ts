// The shapes the Browser tab, the remote hand and its gestures share, kept
// apart so that none of them imports another for a type.
import type { SessionInfo } from "../types";

// LiveView is what the remote hand provides: an element that shows and
// drives the page of a taken-over session, and how to let it go.
export interface LiveView { el: HTMLElement; close: () => void; update?: (s: SessionInfo) => void }

// Header is what each picture of the hand says of itself: its place in
// the stream, the step it follows, and the page's size and scroll.
export interface Header { seq: number; step: number; time: number; width: number; height: number; scrollX: number; scrollY: number }
