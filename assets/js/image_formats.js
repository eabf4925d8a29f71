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
