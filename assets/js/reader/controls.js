// The reader's keyboard and touch handling as React hooks: keys anywhere in
// the window, swipes on the reading area. What each key or gesture means is
// decided in input.js; here they reach the reader's actions.
import { useEffect, useRef } from "react";
import { isFormTarget, keyAction, swipeAction } from "./input.js";

// Esc works wherever focus is: it closes the settings sheet, else leaves
// the control it is on (slider, chapter selector) and hides the menu, else
// shows or hides the menu. Other keys are ignored while typing in a control.
export function useReaderKeys({ act, direction, mode, stageRef, sheetOpen, closeSheet, leaveMenu }) {
  useEffect(() => {
    const onKey = (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        const focused = document.activeElement;
        if (sheetOpen) closeSheet();
        else if (focused && focused.closest?.(".reader-overlay")) {
          focused.blur();
          leaveMenu();
        } else act("menu");
        return;
      }
      if (sheetOpen || isFormTarget(event.target)) return;
      const stage = stageRef.current;
      const action = keyAction(event, {
        direction,
        mode,
        canScrollDown: !!stage && stage.scrollTop + stage.clientHeight < stage.scrollHeight - 2,
        canScrollUp: !!stage && stage.scrollTop > 2,
      });
      if (!action) return;
      // Space on a focused link or button keeps its own meaning.
      if (event.key === " " && event.target.closest?.("a,button")) return;
      event.preventDefault();
      act(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [act, direction, mode, stageRef, sheetOpen, closeSheet, leaveMenu]);
}

// Swipes in the paged reader. A page wider than the screen pans first: the
// room it had on each side when the finger came down, and whether it moved,
// decide (input.js swipeAction). `consumeSwipe` tells a tap handler that the
// click following a swipe is not a tap.
export function useSwipes({ act, direction, mode, stageRef }) {
  const touch = useRef(null);
  const onTouchStart = (event) => {
    const point = event.touches[0];
    const stage = stageRef.current;
    const room = stage ? stage.scrollWidth - stage.clientWidth : 0;
    touch.current = {
      x: point.clientX,
      y: point.clientY,
      swiped: false,
      scrollLeft: stage ? stage.scrollLeft : 0,
      pan: room > 1 ? { left: stage.scrollLeft > 1, right: stage.scrollLeft < room - 1 } : null,
    };
  };
  const onTouchEnd = (event) => {
    const start = touch.current;
    const point = event.changedTouches[0];
    if (!start || !point || mode === "vertical") return;
    const stage = stageRef.current;
    const pan = start.pan && { ...start.pan, moved: !!stage && Math.abs(stage.scrollLeft - start.scrollLeft) > 1 };
    const action = swipeAction(point.clientX - start.x, point.clientY - start.y, direction, pan);
    if (action) {
      start.swiped = true;
      act(action);
    }
  };
  const consumeSwipe = () => {
    const swiped = !!touch.current?.swiped;
    if (swiped) touch.current = null;
    return swiped;
  };
  return { onTouchStart, onTouchEnd, consumeSwipe };
}
