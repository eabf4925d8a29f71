// Which image formats this browser decodes, told to the server in a cookie
// (manga_app/reader/rules.py, IMAGE_COOKIE) as the page's scripts load, so
// the reader's pages (manga_app/reader/formats.py) are AVIF where AVIF
// decodes and JPEG/WebP elsewhere, one URL per page: the reader's loading,
// the server's preload and the offline copy all name the same file. Media
// names are content hashes served as static files (a CDN caches each once,
// no Vary: Accept), so the choice is made here, not by the media server.
export const IMAGE_COOKIE = "manga_img";
const COOKIE_SECONDS = 400 * 24 * 3600;
// A 1x1 grey AVIF (293 bytes), decoded from memory: no request, no CSP rule.
const AVIF_PIXEL =
  "AAAAHGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZgAAAOltZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRt" +
  "AAAAAAABAAAAHmlsb2MAAAAARAAAAQABAAAAAQAAAQ0AAAAYAAAAKGlpbmYAAAAAAAEAAAAaaW5mZQIAAAAAAQAAYXYwMUNvbG9yAAAAAGhp" +
  "cHJwAAAASWlwY28AAAAUaXNwZQAAAAAAAAABAAAAAQAAAA5waXhpAAAAAAEIAAAADGF2MUOBABwAAAAAE2NvbHJuY2x4AAEADQAGgAAAABdp" +
  "cG1hAAAAAAAAAAEAAQQBAoMEAAAAIG1kYXQSAAoHGAAGmAhoNTILGUYhh55oAJBA2aA=";

export async function decodesAvif(decode = globalThis.createImageBitmap) {
  if (typeof decode !== "function") return false;
  try {
    const bytes = Uint8Array.from(atob(AVIF_PIXEL), (char) => char.charCodeAt(0));
    const bitmap = await decode(new Blob([bytes], { type: "image/avif" }));
    if (bitmap && bitmap.close) bitmap.close();
    return true;
  } catch {
    return false;
  }
}

// A reader the server drew (its page images are in the HTML) keeps the
// format it was drawn with: the app, connecting, would otherwise be served
// the other format and fetch the shown pages again. The cookie is then
// written as the page is left, for the next one.
export async function rememberFormats(doc = globalThis.document, win = globalThis.window) {
  const drawnReader = doc.querySelector("img.reader-page") !== null;
  const value = (await decodesAvif()) ? "avif" : "jpeg";
  const found = doc.cookie.split("; ").find((item) => item.startsWith(`${IMAGE_COOKIE}=`));
  if (found === `${IMAGE_COOKIE}=${value}`) return value;
  const write = () => {
    doc.cookie = `${IMAGE_COOKIE}=${value}; path=/; max-age=${COOKIE_SECONDS}; samesite=lax`;
  };
  if (drawnReader) win.addEventListener("pagehide", write, { once: true });
  else write();
  return value;
}

if (typeof document !== "undefined") rememberFormats();
