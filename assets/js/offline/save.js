// Saving chapters into the worker's data cache (sw.js serves them offline),
// keeping the index (store.js) in step. Browser only.
import {
  DATA_CACHE, RECENT_MEDIA, entryFor, entryUrls, evictions, filesToDelete, imageUrls, limitBytes, pageFiles, readIndex, readLimitMb, readerSeed, writeIndex,
} from "./store.js";
import { avifShown, currentScreen, otherWidth } from "../image_formats.js";

// Page images fetched at once while saving.
const PARALLEL = 3;
// A guess of a page's size before any is known, to refuse a save that cannot fit.
const PAGE_GUESS_BYTES = 400 * 1024;

export class SaveError extends Error {}

export function offlineSupported() {
  return typeof window !== "undefined" && "caches" in window && "serviceWorker" in navigator;
}

async function fetchOk(url) {
  let response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch (error) {
    throw new SaveError("保存できませんでした。通信を確かめてもう一度お試しください。");
  }
  if (response.status === 404) throw new SaveError("この話は公開が終了しました");
  if (!response.ok) throw new SaveError("保存できませんでした。通信を確かめてもう一度お試しください。");
  return response;
}

// A page's HTML as the cache keeps it: the text and the headers that matter
// (its Content-Security-Policy holds the hashes of its inline scripts).
function pageResponse(html, response) {
  const headers = { "Content-Type": "text/html; charset=utf-8" };
  const policy = response.headers.get("content-security-policy");
  if (policy) headers["Content-Security-Policy"] = policy;
  return new Response(html, { headers });
}

async function putPage(cache, url) {
  const response = await fetchOk(url);
  const html = await response.text();
  await cache.put(url, pageResponse(html, response));
  return html;
}

// A page's HTML as kept already (the worker renews it whenever it is opened
// online), else fetched and kept.
async function keptPage(cache, url) {
  const found = await cache.match(url);
  return found ? found.text() : putPage(cache, url);
}

// What the browser already downloaded, never the network: keeping an opened
// chapter costs no data. The images the worker noted as it fetched them
// (sw.js); else, shown before the worker took control (a first visit),
// asked again from the HTTP cache (force-cache), where the browser can: this
// document's own downloads, and only when `httpCache` (each ask is a request
// of its own, so none is made while the reader is loading its pages). Another origin's (a CDN's) cannot be asked of the HTTP
// cache without CORS.
async function alreadyDownloaded(url, httpCache) {
  const href = new URL(url, window.location.href).href;
  const sameOrigin = new URL(href).origin === window.location.origin;
  try {
    const recent = await (await caches.open(RECENT_MEDIA)).match(href);
    if (recent) return recent;
    // Only what this document downloaded: asking the HTTP cache (only-if-cached)
    // for a page not loaded yet logged a console error each.
    if (!httpCache || !performance.getEntriesByName(href).length) return null;
    const response = await fetch(href, sameOrigin ? { cache: "force-cache" } : { mode: "cors", credentials: "omit", cache: "force-cache" });
    return response.ok ? response : null;
  } catch (error) {
    return null; // not downloaded yet
  }
}

// A kept file's size, from its header where it has one: an opened chapter is
// kept again as each page loads, and reading every image back each time
// would cost a phone more than the keeping.
async function sizeOf(response) {
  const length = Number(response.headers.get("content-length"));
  return Number.isInteger(length) && length > 0 ? length : (await response.blob()).size;
}

// Keeps `urls` (fetched with `get`); the ones kept and their size. The first
// failure stops every worker before it is thrown, so nothing is written after.
async function putFiles(cache, urls, get) {
  let bytes = 0;
  let next = 0;
  let failure = null;
  const kept = [];
  const worker = async () => {
    while (next < urls.length && !failure) {
      const url = urls[next++];
      try {
        const cached = await cache.match(url);
        const response = cached || (await get(url));
        if (!response || failure) continue;
        if (!cached) await cache.put(url, response.clone());
        bytes += await sizeOf(response);
        kept.push(url);
      } catch (error) {
        failure = failure || error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, urls.length) }, worker));
  if (failure) throw failure;
  return { bytes, kept: urls.filter((url) => kept.includes(url)) };
}

async function askPersistence() {
  try {
    if (navigator.storage && navigator.storage.persist && !(await navigator.storage.persisted())) {
      await navigator.storage.persist();
    }
  } catch (error) {
    // Not granted: the browser may clear the data under storage pressure.
  }
}

async function checkRoom(pageCount) {
  if (!navigator.storage || !navigator.storage.estimate) return;
  const { usage = 0, quota = 0 } = await navigator.storage.estimate();
  if (quota && quota - usage < pageCount * PAGE_GUESS_BYTES) {
    throw new SaveError("端末の空き容量が足りないため保存できません。保存した話を削除してからお試しください。");
  }
}

let queue = Promise.resolve();

// The chapter at reader path `path` with its page list (the page's HTML
// holds it) and its series' title page. `saved` (オフライン保存): every page
// at the reader's quality (`saver`), kept until deleted; else an opened
// chapter: the pages the browser already downloaded, kept within the size
// limit, least recently read out first (null while none is); its HTML and
// title page as kept already unless `fresh`; the HTTP cache asked only with
// `httpCache`. One chapter is kept at a time.
export function keepChapter(path, { saver, saved, fresh = true, httpCache = true }) {
  const run = () => keepNow(path, { saver, saved, fresh, httpCache });
  const done = queue.then(run, run);
  queue = done.catch(() => null);
  return done;
}

async function keepNow(path, options) {
  const { saved } = options;
  if (!offlineSupported()) throw new SaveError("このブラウザではオフライン保存できません");
  const known = entryFor(readIndex(), path);
  if (known && known.saved) {
    touch(known.path);
    return known;
  }
  if (saved) await askPersistence();
  const written = new Set();
  const data = await caches.open(DATA_CACHE);
  // Every URL this save writes is noted, so a failed save leaves nothing behind.
  const cache = { match: (url) => data.match(url), put: (url, response) => written.add(url) && data.put(url, response) };
  const forget = async () => {
    const used = new Set(Object.values(readIndex()).flatMap(entryUrls));
    await Promise.all([...written].filter((url) => !used.has(url)).map((url) => data.delete(url)));
  };
  let entry;
  try {
    entry = await keep(cache, path, options);
  } catch (error) {
    await forget();
    throw error;
  }
  if (!entry) await forget();
  return entry;
}

async function keep(cache, path, { saver, saved, fresh, httpCache }) {
  const page = saved || fresh ? putPage : keptPage;
  const html = await page(cache, path);
  const seed = readerSeed(html);
  if (!seed) throw new SaveError("この話のページ一覧を読めませんでした");
  await checkRoom(seed.pages.length);
  const paths = [path];
  if (seed.chapterUrl && seed.chapterUrl !== path) {
    await page(cache, seed.chapterUrl);
    paths.push(seed.chapterUrl);
  }
  const get = saved ? fetchOk : (url) => alreadyDownloaded(url, httpCache);
  // The files the reader's <picture>s show in this browser: AVIF where it can.
  const avif = await avifShown();
  const wanted = pageFiles(seed.pages, saver, avif, currentScreen());
  // An opened chapter keeps what the reader showed: its first page may be at the other width
  // (the screen the server knew), and the worker serves one for the other offline.
  const pages = await putFiles(cache, saved ? wanted : wanted.flatMap((url) => [url, otherWidth(url)].filter(Boolean)), get);
  if (!saved && !pages.kept.length) return null;
  const titleHtml = seed.seriesUrl ? await page(cache, seed.seriesUrl) : "";
  const covers = await putFiles(cache, imageUrls(titleHtml, avif), get);
  const files = pages.kept;
  const extras = covers.kept.filter((url) => !files.includes(url));
  const bytes = pages.bytes + covers.bytes + html.length + titleHtml.length;
  const now = Date.now();
  const entry = {
    key: `${seed.slug}/${seed.number}`,
    path: seed.chapterUrl || path,
    paths,
    seriesUrl: seed.seriesUrl,
    seriesTitle: seed.seriesTitle,
    label: seed.label,
    saved: !!saved,
    bytes,
    files,
    extras,
    savedAt: now,
    readAt: now,
  };
  const latest = readIndex();
  latest[entry.path] = entry;
  writeIndex(latest);
  await trim();
  window.dispatchEvent(new Event(CHANGED_EVENT));
  return entry;
}

// The chapter was read again: it goes last in the least-recently-read order.
export function touch(path) {
  const items = readIndex();
  const entry = entryFor(items, path);
  if (!entry) return;
  entry.readAt = Date.now();
  writeIndex(items);
}

// Said on `window` whenever chapters are kept or removed (lists redraw).
export const CHANGED_EVENT = "manga-offline-changed";

// Delete entries (reader paths) and the cached files only they use.
export async function removeChapters(paths) {
  const items = readIndex();
  const urls = filesToDelete(items, paths);
  for (const path of paths) delete items[path];
  writeIndex(items);
  if (offlineSupported()) {
    const cache = await caches.open(DATA_CACHE);
    await Promise.all(urls.map((url) => cache.delete(url)));
  }
  window.dispatchEvent(new Event(CHANGED_EVENT));
}

// Opened chapters past the reader's size limit go, least recently read first.
export async function trim() {
  const dropped = evictions(readIndex(), limitBytes(readLimitMb()));
  if (dropped.length) await removeChapters(dropped);
  return dropped;
}
