// Zoom rules of the reader: how far, by how much per wheel notch, key or
// double tap, and what counts as back at fit. No React here.

export const MAX_ZOOM = 4;
// A double tap (or click) zooms to this, or back to fit when zoomed.
export const DOUBLE_TAP_ZOOM = 2.5;
// One + or - key press.
export const KEY_STEP = 1.25;
// Within this of 1, a gesture that ends settles at fit.
const FIT_SNAP = 0.05;

export function clampZoom(zoom) {
  if (!Number.isFinite(zoom)) return 1;
  return Math.min(MAX_ZOOM, Math.max(1, zoom));
}

// Where a gesture ends: clamped, and back at fit when nearly there.
export function settledZoom(zoom) {
  const clamped = clampZoom(zoom);
  return clamped - 1 < FIT_SNAP ? 1 : Math.round(clamped * 1000) / 1000;
}

// ctrl/⌘ + wheel (and a trackpad pinch, which the browser sends as one):
// up zooms in, proportionally to how far the wheel turned.
export function wheelZoom(zoom, deltaY, deltaMode = 0) {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaY;
  return clampZoom(zoom * Math.exp(-pixels / 300));
}

export function keyZoom(zoom, action) {
  if (action === "zoom-in") return clampZoom(zoom * KEY_STEP);
  if (action === "zoom-out") return settledZoom(zoom / KEY_STEP);
  return 1;
}

export function doubleTapZoom(zoom) {
  return zoom > 1 ? 1 : DOUBLE_TAP_ZOOM;
}

// Two fingers: the zoom follows the distance between them.
export function pinchZoom(startZoom, startDistance, distance) {
  if (!(startDistance > 0)) return clampZoom(startZoom);
  return clampZoom((startZoom * distance) / startDistance);
}

// Two taps make a double tap when the second comes soon and close by
// (Android's own double-tap timeout).
export const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_PX = 40;

export function isDoubleTap(first, second) {
  return (
    !!first &&
    second.at - first.at <= DOUBLE_TAP_MS &&
    Math.abs(second.x - first.x) <= DOUBLE_TAP_PX &&
    Math.abs(second.y - first.y) <= DOUBLE_TAP_PX
  );
}
