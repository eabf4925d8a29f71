// Keys, taps and swipes turned into reader actions ("next", "prev", "first",
// "last", "menu"), aware of the reading direction. No React here.

// In right-to-left reading the next page lies to the left.
function sideAction(side, direction) {
  const forward = direction === "rtl" ? "left" : "right";
  return side === forward ? "next" : "prev";
}

export function keyAction(event, { direction, mode, canScrollDown, canScrollUp }) {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  switch (event.key) {
    case "ArrowLeft":
      return sideAction("left", direction);
    case "ArrowRight":
      return sideAction("right", direction);
    case "Home":
      return "first";
    case "End":
      return "last";
    case "Escape":
      return "menu";
    default:
      break;
  }
  // In the vertical strip (or a page taller than the screen) the browser
  // scrolls with these keys; otherwise they turn pages.
  if (mode === "vertical") return null;
  if (event.key === " " || event.key === "Spacebar") {
    if (event.shiftKey) return canScrollUp ? null : "prev";
    return canScrollDown ? null : "next";
  }
  if (event.key === "PageDown" || event.key === "ArrowDown") return canScrollDown ? null : "next";
  if (event.key === "PageUp" || event.key === "ArrowUp") return canScrollUp ? null : "prev";
  return null;
}

// Left third, right third, centre (the menu).
export function tapAction(x, width, direction) {
  if (width <= 0) return "menu";
  if (x < width / 3) return sideAction("left", direction);
  if (x > (width * 2) / 3) return sideAction("right", direction);
  return "menu";
}

export const SWIPE_MIN_PX = 50;

// A mostly horizontal swipe turns the page: the finger drags the page away,
// so swiping right shows the page on the left.
export function swipeAction(dx, dy, direction) {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < Math.abs(dy) * 1.5) return null;
  return sideAction(dx > 0 ? "left" : "right", direction);
}

// Typing in a form control (the chapter selector, the slider) is not reading.
export function isFormTarget(target) {
  const tag = target && target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (target && target.isContentEditable);
}
