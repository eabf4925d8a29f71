// The vertical strip's position as React hooks: holding a resumed position
// while the router settles, and following the visitor's scrolling.
import { useEffect } from "react";
import { positionInStrip } from "./layout.js";

// How long the resumed scroll position is defended against the router.
const RESUME_HOLD_MS = 1500;
// The reading line of the strip, just below the top edge, so a page whose
// top sits exactly at the edge counts as the current one.
export const STRIP_LINE = 2;

// The router restores or resets the window's scroll around hydration, which
// can land after the resume: hold the resumed position (`wanted()`, the
// window scroll, or null) until the visitor moves or a moment has passed,
// then `onSettled`. Once, right after mounting, if `active()`.
export function useResumeHold(active, wanted, onSettled) {
  useEffect(() => {
    if (!active()) return undefined;
    const top = wanted();
    if (top === null) {
      onSettled();
      return undefined;
    }
    if (Math.abs(window.scrollY - top) > 4) window.scrollTo({ top, behavior: "instant" });
    let holding = true;
    const release = () => {
      holding = false;
      onSettled();
    };
    const hold = () => {
      if (holding && Math.abs(window.scrollY - top) > 4) window.scrollTo({ top, behavior: "instant" });
    };
    const inputs = ["wheel", "touchstart", "keydown", "pointerdown"];
    inputs.forEach((name) => window.addEventListener(name, release, { passive: true, capture: true }));
    window.addEventListener("scroll", hold, { passive: true });
    const timer = setTimeout(release, RESUME_HOLD_MS);
    return () => {
      clearTimeout(timer);
      inputs.forEach((name) => window.removeEventListener(name, release, { capture: true }));
      window.removeEventListener("scroll", hold);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

// Reads the page under the reading line (and the part of it above) as the
// visitor scrolls, once a frame: `onPosition(page, offset)`; `onMoved` after
// a real scroll (the menu hides). A new width (rotation, a resized window)
// redraws every page at another height: `restore()` puts the visitor back on
// the same page and offset. Resize steps run before scroll events, so the
// position is still the old one then. A new height alone (a phone's
// toolbar) changes no page, and moving the scroll then would stop a fling.
export function useStripTracking({ active, imageRefs, total, onPosition, onMoved, restore }) {
  useEffect(() => {
    if (!active) return undefined;
    let frame = 0;
    let shownAt = window.scrollY;
    let width = window.innerWidth;
    const update = () => {
      frame = 0;
      // A frame asked for just before the chapter changed may find pages
      // already unmounted (their refs null): there is no position to read then.
      const images = imageRefs.current.slice(0, total);
      if (images.length < total || !images.every(Boolean)) return;
      const rects = images.map((image) => image.getBoundingClientRect());
      const found = positionInStrip(rects, STRIP_LINE);
      onPosition(found.page, found.offset);
      if (Math.abs(window.scrollY - shownAt) > 80) {
        onMoved();
        shownAt = window.scrollY;
      }
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    const onResize = () => {
      if (window.innerWidth === width) return;
      width = window.innerWidth;
      restore();
      shownAt = window.scrollY;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onResize);
    // A scroll before this ran (a quick visitor on a busy phone) was heard by
    // nobody: read the position once now.
    if (window.scrollY > 0) onScroll();
    return () => {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onResize);
      cancelAnimationFrame(frame);
    };
  }, [active, imageRefs, total, onPosition, onMoved, restore]);
}
