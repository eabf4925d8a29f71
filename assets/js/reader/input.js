// Keys, taps and swipes turned into reader actions ("next", "prev", "first",
// "last", "menu", "continue" (Enter: the next chapter, from the end card), "zoom-in", "zoom-out", "zoom-reset", and in the paged
// reader "scroll-down", "scroll-up", "line-down", "line-up" inside a page
// taller than the screen), aware of the reading direction. No React here.

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
    // At the end card: on to the next chapter.
    case "Enter":
      return "continue";
    // Zoom inside the reader (ctrl/⌘ with them is the browser's own zoom).
    case "+":
    case "=":
      return "zoom-in";
    case "-":
      return "zoom-out";
    case "0":
      return "zoom-reset";
    default:
      break;
  }
  // In the vertical strip the browser scrolls the page with these keys. In
  // the paged reader they scroll a page taller than the screen (the reader
  // does it: the page's box, not the document, scrolls) and turn the page
  // once its end is reached.
  if (mode === "vertical") return null;
  if (event.key === " " || event.key === "Spacebar") {
    if (event.shiftKey) return canScrollUp ? "scroll-up" : "prev";
    return canScrollDown ? "scroll-down" : "next";
  }
  if (event.key === "PageDown") return canScrollDown ? "scroll-down" : "next";
  if (event.key === "PageUp") return canScrollUp ? "scroll-up" : "prev";
  if (event.key === "ArrowDown") return canScrollDown ? "line-down" : "next";
  if (event.key === "ArrowUp") return canScrollUp ? "line-up" : "prev";
  return null;
}

// Left third, right third, centre (the menu). `swapped` trades the left and
// right zones, for a thumb that reaches only one side of the screen.
export function tapAction(x, width, direction, swapped = false) {
  if (width <= 0) return "menu";
  const left = swapped ? "right" : "left";
  const right = swapped ? "left" : "right";
  if (x < width / 3) return sideAction(left, direction);
  if (x > (width * 2) / 3) return sideAction(right, direction);
  return "menu";
}

export const SWIPE_MIN_PX = 50;

// A mostly horizontal swipe turns the page: the finger drags the page away,
// so swiping right shows the page on the left. On a page wider than the
// screen the swipe pans it instead, until its edge on that side is reached:
// `pan` tells whether the page could still move that way when the finger
// came down ({left, right}: room to reveal on each side) and whether it moved.
export function swipeAction(dx, dy, direction, pan = null) {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < Math.abs(dy) * 1.5) return null;
  if (pan && (pan.moved || (dx > 0 ? pan.left : pan.right))) return null;
  return sideAction(dx > 0 ? "left" : "right", direction);
}

// Typing in a form control (the chapter selector, the slider) is not reading.
export function isFormTarget(target) {
  const tag = target && target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (target && target.isContentEditable);
}
