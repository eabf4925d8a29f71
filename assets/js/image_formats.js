// Whether this browser shows AVIF: the answer its <picture> elements get
// from a <source type="image/avif">, asked once by decoding a 1x1 AVIF. The
// scripts that fetch images themselves (the reader's loading queue, the
// offline copy) fetch the file the <picture> shows, never both.
const TINY_AVIF = "data:image/avif;base64,AAAAIGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZk1BMUIAAADrbWV0YQAAAAAAAAAhaGRscgAAAAAAAAAAcGljdAAAAAAAAAAAAAAAAAAAAAAOcGl0bQAAAAAAAQAAAB5pbG9jAAAAAEQAAAEAAQAAAAEAAAETAAAAIQAAAChpaW5mAAAAAAABAAAAGmluZmUCAAAAAAEAAGF2MDFDb2xvcgAAAABqaXBycAAAAEtpcGNvAAAAFGlzcGUAAAAAAAAAAQAAAAEAAAAQcGl4aQAAAAADCAgIAAAADGF2MUOBAAwAAAAAE2NvbHJuY2x4AAEADQAGgAAAABdpcG1hAAAAAAAAAAEAAQQBAoMEAAAAKW1kYXQSAAoIGAAGiAhoNCAyExlHh4Yhh5555oAAAJBAyRxgimo=";

let known = null; // null until asked and answered
let asking = null;

export function avifShown() {
  if (known !== null) return Promise.resolve(known);
  if (!asking) {
    asking = new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve(image.naturalWidth > 0);
      image.onerror = () => resolve(false);
      image.src = TINY_AVIF;
    }).then((answer) => (known = answer));
  }
  return asking;
}

// What is known now: true, false, or null (not yet; avifShown() asks).
export function avifKnown() {
  return known;
}

// The file of an image the browser shows: its AVIF (when there is one and
// AVIF is shown) or its JPEG/WebP fallback.
export function shownFile(src, avif, avifOk) {
  return avifOk && avif ? avif : src;
}

// A page's high-DPI AVIF (`hidpi_avif`: 1,600 px, where the original is at
// least 1,440 px wide) is taken where the page is drawn wider than this many
// device pixels (a tenth over the reader width's 1,200): a tablet's portrait
// page at 2x, a dense desktop, a zoomed page. A phone at 3x draws a page
// 1,170 px wide and keeps the reader width's bytes.
export const HIDPI_FROM = 1320;
// The strip's widest page in its "auto" fit (reader_pages.css).
const STRIP_AUTO_MAX = 800;

// The screen as the reader lays pages out on it (null outside a browser).
export function currentScreen() {
  if (typeof window === "undefined") return null;
  return { dpr: window.devicePixelRatio || 1, width: window.innerWidth, height: window.innerHeight };
}

// "2.63@820x1180": the screen in the first-page cookie, so the server names
// the very file this browser will show (and back, from the cookie or the
// server's reading of it, rules.first_page_screen).
export function screenText(screen) {
  return screen ? `${Math.round(screen.dpr * 100) / 100}@${screen.width | 0}x${screen.height | 0}` : "";
}

export function screenFromText(text) {
  const found = /(?:^|:)(\d{1,2}(?:\.\d{1,2})?)@(\d{1,5})x(\d{1,5})$/.exec(text || "");
  return found ? { dpr: +found[1], width: +found[2], height: +found[3] } : null;
}

// Device pixels across `page` drawn on `screen`: its fit ("auto" both
// sides, "width", "height", "original"), a strip's width capped in "auto",
// half the width for a page of a pair (a spread stands alone).
export function drawnWidth(page, screen, { fit = "auto", mode = "paged", double = false } = {}) {
  const across = double && mode === "paged" && page.width <= page.height ? screen.width / 2 : screen.width;
  const tall = (screen.height * page.width) / page.height;
  let css = Math.min(across, tall);
  if (fit === "original") css = page.width;
  else if (fit === "width") css = across;
  else if (fit === "height") css = tall;
  else if (mode === "vertical") css = Math.min(across, STRIP_AUTO_MAX);
  return css * screen.dpr;
}

// The same page's AVIF at the other full-quality width (1,200 <-> 1,600 px),
// "" for any other file: an opened chapter keeps whichever the reader showed,
// and the service worker serves one for the other offline (sw.js, keptSibling).
export function otherWidth(url) {
  const found = /-w(1200|1600)\.avif$/.exec(url || "");
  return found ? url.replace(/-w(1200|1600)\.avif$/, found[1] === "1200" ? "-w1600.avif" : "-w1200.avif") : "";
}

// The AVIF a page shows: the data saver's, the high-DPI one where it is
// worth its bytes (or the page is zoomed), else the reader width's.
export function pageAvif(page, { saver = false, zoomed = false, screen = null, layout } = {}) {
  if (saver && !zoomed) return page.saver_avif;
  const dense = zoomed || (screen && drawnWidth(page, screen, layout) > HIDPI_FROM);
  return (dense && page.hidpi_avif) || page.avif;
}
