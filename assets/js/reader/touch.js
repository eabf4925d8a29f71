// The reader's own touch gestures as a React hook: one finger swipes turn
// pages (or pan a page wider than the screen first), two fingers zoom, and
// a page turn never comes from, or right after, a two-finger gesture. The
// browser keeps what touch-action leaves it (reader_pages.css): vertical
// scrolling, and panning a page that is zoomed or wider than the screen.
import { useEffect, useRef } from "react";
import { swipeAction, tapAction } from "./input.js";
import { DOUBLE_TAP_MS, doubleTapZoom, isDoubleTap, pinchZoom } from "./zoom.js";

// After the last finger of a two-finger gesture lifts, a swipe this soon is
// the end of that gesture, not a page turn.
const AFTER_PINCH_MS = 400;

function distance(a, b) {
  return Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
}

function middle(a, b) {
  return { x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2 };
}

// `contentRef`: the reading area (listeners are not passive: a pinch's
// moves are the reader's, never the browser's). `zoomer`: see useZoom.
export function useReaderTouch({ contentRef, stageRef, mode, direction, act, zoomer }) {
  const gesture = useRef(null);
  const pinchEnded = useRef(-Infinity);
  const swiped = useRef(false);
  const latest = useRef({ mode, direction, act, zoomer });
  latest.current = { mode, direction, act, zoomer };

  useEffect(() => {
    const element = contentRef.current;
    if (!element) return undefined;
    const onStart = (event) => {
      const touches = event.touches;
      if (touches.length >= 2) {
        const centre = middle(touches[0], touches[1]);
        gesture.current = {
          multi: true,
          pinch: { distance: distance(touches[0], touches[1]), zoom: latest.current.zoomer.current(), centre },
        };
        return;
      }
      if (gesture.current && gesture.current.multi) return;
      const point = touches[0];
      const stage = stageRef.current;
      const room = stage ? stage.scrollWidth - stage.clientWidth : 0;
      swiped.current = false;
      gesture.current = {
        multi: false,
        x: point.clientX,
        y: point.clientY,
        scrollLeft: stage ? stage.scrollLeft : 0,
        pan: room > 1 ? { left: stage.scrollLeft > 1, right: stage.scrollLeft < room - 1 } : null,
      };
    };
    const onMove = (event) => {
      const current = gesture.current;
      if (!current || !current.pinch || event.touches.length < 2) return;
      if (event.cancelable) event.preventDefault();
      const [a, b] = event.touches;
      const centre = middle(a, b);
      const { zoomer } = latest.current;
      zoomer.zoomTo(pinchZoom(current.pinch.zoom, current.pinch.distance, distance(a, b)), centre.x, centre.y, {
        commit: false,
        pan: { x: current.pinch.centre.x - centre.x, y: current.pinch.centre.y - centre.y },
      });
      current.pinch.centre = centre;
    };
    const onEnd = (event) => {
      const current = gesture.current;
      if (!current) return;
      if (current.multi) {
        // A finger left of a pinch moves nothing and turns nothing.
        if (current.pinch) {
          latest.current.zoomer.settle();
          current.pinch = null;
        }
        if (event.touches.length === 0) {
          gesture.current = null;
          pinchEnded.current = performance.now();
        }
        return;
      }
      if (event.touches.length > 0) return;
      gesture.current = null;
      const point = event.changedTouches[0];
      const { mode: shown, direction: reading, act: run, zoomer } = latest.current;
      if (!point || shown === "vertical" || zoomer.current() > 1) return;
      if (performance.now() - pinchEnded.current < AFTER_PINCH_MS) return;
      const stage = stageRef.current;
      const pan = current.pan && { ...current.pan, moved: !!stage && Math.abs(stage.scrollLeft - current.scrollLeft) > 1 };
      const action = swipeAction(point.clientX - current.x, point.clientY - current.y, reading, pan);
      if (action) {
        swiped.current = true;
        run(action);
      }
    };
    const onCancel = () => {
      if (gesture.current && gesture.current.pinch) latest.current.zoomer.settle();
      gesture.current = null;
    };
    element.addEventListener("touchstart", onStart, { passive: true });
    element.addEventListener("touchmove", onMove, { passive: false });
    element.addEventListener("touchend", onEnd, { passive: true });
    element.addEventListener("touchcancel", onCancel, { passive: true });
    return () => {
      element.removeEventListener("touchstart", onStart);
      element.removeEventListener("touchmove", onMove);
      element.removeEventListener("touchend", onEnd);
      element.removeEventListener("touchcancel", onCancel);
    };
  }, [contentRef, stageRef]);

  // The click that follows a swipe (or a pinch) is not a tap.
  const consumeSwipe = () => {
    const was = swiped.current || performance.now() - pinchEnded.current < AFTER_PINCH_MS;
    swiped.current = false;
    return was;
  };
  return { consumeSwipe };
}

// Taps (and clicks) on the reading area: the thirds turn pages, the centre
// shows the menu (input.js tapAction). A tap waits a moment for a second
// one: a double tap zooms, or returns to fit. While zoomed, a tap shows the
// menu; pages turn at fit. Returns the click handler.
export function useTaps({ act, direction, tapSwap, zoomer, consumeSwipe }) {
  const lastTap = useRef(null);
  const timer = useRef(null);
  const single = useRef(null);
  single.current = (x) => act(zoomer.current() > 1 ? "menu" : tapAction(x, window.innerWidth, direction, tapSwap));
  useEffect(() => () => clearTimeout(timer.current), []);
  return (event) => {
    // The end card's controls are its own; a tap on its background is a
    // tap on the page (the forward side continues to the next chapter).
    if (event.target.closest("a,button,select,input,summary,details[open] ol") || consumeSwipe() || zoomer.consumeDrag()) return;
    const tap = { at: performance.now(), x: event.clientX, y: event.clientY };
    clearTimeout(timer.current);
    if (isDoubleTap(lastTap.current, tap)) {
      lastTap.current = null;
      zoomer.zoomTo(doubleTapZoom(zoomer.current()), tap.x, tap.y);
      return;
    }
    lastTap.current = tap;
    timer.current = setTimeout(() => {
      lastTap.current = null;
      single.current(tap.x);
    }, DOUBLE_TAP_MS);
  };
}
