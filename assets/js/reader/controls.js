// The reader's keyboard handling as a React hook: keys anywhere in the
// window. What each key means is decided in input.js; here keys reach the
// reader's actions. (Touch: touch.js.)
import { useEffect } from "react";
import { isFormTarget, keyAction } from "./input.js";

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
      // Space and Enter on a focused link or button keep their own meaning.
      if ((event.key === " " || event.key === "Enter") && event.target.closest?.("a,button,summary")) return;
      event.preventDefault();
      act(action);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [act, direction, mode, stageRef, sheetOpen, closeSheet, leaveMenu]);
}
