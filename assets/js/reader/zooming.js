// The reader's zoom as a React hook: the page (paged) or the strip (long
// strip) is drawn larger through --zoom (reader_pages.css), so the browser
// scrolls a zoomed page natively; the point under the fingers or the
// pointer stays put. ctrl/⌘ + wheel zooms; a mouse drag pans while zoomed.
// The rules (limits, steps) are zoom.js.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { clampZoom, settledZoom, wheelZoom } from "./zoom.js";

// A press that moves further than this is a drag, not a click.
const DRAG_PX = 4;

export function useZoom({ mode, rootRef, stageRef, contentRef, page }) {
  const [zoom, setZoom] = useState(1);
  const live = useRef(1);
  const dragged = useRef(false);

  const zoomer = useMemo(() => {
    const box = () => (mode === "vertical" ? rootRef.current && rootRef.current.querySelector(".reader-strip") : stageRef.current);
    // The strip scrolls sideways itself and down with the window; the stage both ways.
    const scrollContent = (element, dx, dy) => {
      element.scrollLeft += dx;
      if (mode === "vertical") window.scrollBy({ top: dy, behavior: "instant" });
      else element.scrollTop += dy;
    };
    // The zoomed content's box in the window: the unit of the paged stage,
    // or the strip's whole width (it scrolls sideways) and its pages' height.
    const contentBox = (element) => {
      if (mode !== "vertical") {
        const unit = element.querySelector(".reader-unit");
        return unit && unit.getBoundingClientRect();
      }
      const rect = element.getBoundingClientRect();
      // The pages' height: the end card below them is not drawn larger.
      const pages = element.querySelectorAll("img.reader-page");
      const last = pages.length ? pages[pages.length - 1].getBoundingClientRect() : rect;
      return { left: rect.left - element.scrollLeft, top: rect.top, width: element.scrollWidth, height: last.bottom - rect.top };
    };
    const zoomTo = (next, x, y, { commit = true, pan = null } = {}) => {
      const element = box();
      const before = element && contentBox(element);
      const value = clampZoom(next);
      if (!before) {
        live.current = 1;
        if (commit) setZoom(1);
        return;
      }
      const share = {
        x: before.width > 0 ? (x - before.left) / before.width : 0.5,
        y: before.height > 0 ? (y - before.top) / before.height : 0.5,
      };
      if (value === 1) element.style.removeProperty("--zoom");
      else element.style.setProperty("--zoom", String(value));
      live.current = value;
      const after = contentBox(element);
      const dx = after.left + share.x * after.width - x + (pan ? pan.x : 0);
      const dy = after.top + share.y * after.height - y + (pan ? pan.y : 0);
      scrollContent(element, dx, dy);
      if (commit) setZoom(value);
    };
    return {
      zoomTo,
      current: () => live.current,
      // The end of a gesture: near fit is fit.
      settle: () => zoomTo(settledZoom(live.current), window.innerWidth / 2, window.innerHeight / 2),
      reset: () => zoomTo(1, window.innerWidth / 2, window.innerHeight / 2),
      pan: (dx, dy) => {
        const element = box();
        if (element) scrollContent(element, dx, dy);
      },
      // The click that ends a drag is not a tap.
      consumeDrag: () => {
        const was = dragged.current;
        dragged.current = false;
        return was;
      },
    };
  }, [mode, rootRef, stageRef]);

  // A new page (paged) or another mode starts at fit.
  useLayoutEffect(() => {
    if (live.current === 1) return;
    const element = mode === "vertical" ? rootRef.current && rootRef.current.querySelector(".reader-strip") : stageRef.current;
    if (element) element.style.removeProperty("--zoom");
    live.current = 1;
    setZoom(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode, mode === "paged" ? page : -1]);

  useEffect(() => {
    const onWheel = (event) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      if (!rootRef.current || event.target.closest?.(".reader-overlay, .reader-sheet-backdrop")) return;
      event.preventDefault();
      zoomer.zoomTo(settledZoom(wheelZoom(live.current, event.deltaY, event.deltaMode)), event.clientX, event.clientY);
    };
    window.addEventListener("wheel", onWheel, { passive: false });
    return () => window.removeEventListener("wheel", onWheel);
  }, [zoomer, rootRef]);

  useEffect(() => {
    const element = contentRef.current;
    if (!element) return undefined;
    let press = null;
    const onMove = (event) => {
      if (!press) return;
      const dx = event.clientX - press.x;
      const dy = event.clientY - press.y;
      if (!press.moving && Math.hypot(dx, dy) <= DRAG_PX) return;
      press.moving = true;
      dragged.current = true;
      press.x = event.clientX;
      press.y = event.clientY;
      zoomer.pan(-dx, -dy);
    };
    const onUp = () => {
      press = null;
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
    };
    const onDown = (event) => {
      if (event.pointerType !== "mouse" || event.button !== 0 || live.current === 1) return;
      dragged.current = false;
      press = { x: event.clientX, y: event.clientY, moving: false };
      event.preventDefault();
      window.addEventListener("pointermove", onMove);
      window.addEventListener("pointerup", onUp);
    };
    element.addEventListener("pointerdown", onDown);
    return () => {
      element.removeEventListener("pointerdown", onDown);
      onUp();
    };
  }, [contentRef, zoomer]);

  return { zoom, zoomer };
}
