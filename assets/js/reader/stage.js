// The paged stage's own scrolling as a React hook: where a new screen
// starts, the offset inside a page taller than the screen, and keeping it
// through a resize.
import { useEffect, useLayoutEffect, useRef } from "react";

// `position` (a ref: {page, offset}) is the visitor's place, `track` moves
// it. `layout` lists what draws the screen anew (fit, double pages,
// offset). Returns the stage's scroll handler.
export function useStageScroll({ mode, stageRef, page, total, direction, position, track, layout }) {
  const firstScreen = useRef(true);
  useLayoutEffect(() => {
    // A new screen in the paged reader starts at its top (its right edge in
    // right-to-left reading, for a page wider than the screen); the first
    // screen keeps the resumed offset the reader set. A new layout of the
    // screen is a new screen too.
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    const stage = stageRef.current;
    if (mode !== "paged" || !stage) return;
    stage.scrollTop = 0;
    stage.scrollLeft = direction === "rtl" ? stage.scrollWidth : 0;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, ...layout]);

  useEffect(() => {
    // A resized paged screen draws the page at another size (reader_pages.css): same offset.
    if (mode !== "paged") return undefined;
    const keep = () => {
      const stage = stageRef.current;
      if (stage && position.current.page < total) stage.scrollTop = position.current.offset * stage.scrollHeight;
    };
    window.addEventListener("resize", keep);
    return () => window.removeEventListener("resize", keep);
  }, [mode, total, stageRef, position]);

  return () => {
    const stage = stageRef.current;
    if (!stage || page >= total) return;
    track(page, stage.scrollHeight > 0 ? Math.min(1, stage.scrollTop / stage.scrollHeight) : 0);
  };
}
