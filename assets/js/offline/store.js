// What this browser keeps for reading offline: the index of the chapters in
// the worker's data cache (sw.js), the reader's size limit, and the reading
// reported while offline (the outbox). Pure functions over plain data, and
// thin localStorage wrappers. No React, no network.
//
// Index: {"v": 1, "items": {"<reader path>": Entry}}, Entry =
//   {key: "<slug>/<number>", path, paths: [reader paths cached], seriesUrl,
//    seriesTitle, label, saved: true (オフライン保存) | false (opened, LRU),
//    bytes, files: [page image URLs], extras: [the title page's images], savedAt, readAt}
// Outbox: {"v": 1, "items": {"<reader path>": {page, offset, at, furthest}}}
// Shelves: {"v": 1, "items": {"last": "<account id>", "<account id>":
//   {history: [HistoryCard], library: [LibraryCard], at}}}: the account's
//   /history and /library as last seen online, shown when offline.
import { HISTORY_STORAGE_KEY, SETTINGS_COOKIE } from "../shared.js";
import { pageAvif } from "../image_formats.js";

export const DATA_CACHE = "manga-offline-v1";
// The last page images the worker fetched, the site's or a CDN's (sw.js).
export const RECENT_MEDIA = "manga-media-recent";
export const INDEX_KEY = "manga_offline_chapters";
export const LIMIT_KEY = "manga_offline_limit_mb";
export const OUTBOX_KEY = "manga_offline_progress";
export const NOTES_KEY = "manga_offline_notes";
export const SHELVES_KEY = "manga_offline_shelves";
export const DEFAULT_LIMIT_MB = 300;
export const MAX_LIMIT_MB = 100000;
export const MAX_OUTBOX = 200;
const MB = 1024 * 1024;

function read(key) {
  try {
    const raw = JSON.parse(localStorage.getItem(key) || "null");
    if (raw && raw.v === 1 && raw.items && typeof raw.items === "object") return raw.items;
  } catch (error) {
    // A visitor can edit localStorage: garbage is an empty store.
  }
  return {};
}

function write(key, items) {
  localStorage.setItem(key, JSON.stringify({ v: 1, items }));
}

export const readIndex = () => read(INDEX_KEY);
export const writeIndex = (items) => write(INDEX_KEY, items);
export const readShelves = () => read(SHELVES_KEY);
export const writeShelves = (items) => write(SHELVES_KEY, items);
export const readOutbox = () => read(OUTBOX_KEY);
export const writeOutbox = (items) => write(OUTBOX_KEY, items);

export function parseLimit(text) {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 1 || value > MAX_LIMIT_MB) return null;
  return Math.round(value);
}

export function readLimitMb() {
  try {
    return parseLimit(localStorage.getItem(LIMIT_KEY)) ?? DEFAULT_LIMIT_MB;
  } catch (error) {
    return DEFAULT_LIMIT_MB;
  }
}

export function totalBytes(items) {
  return Object.values(items).reduce((sum, entry) => sum + (entry.bytes || 0), 0);
}

// The opened (not saved) chapters to drop, least recently read first, so that
// everything kept fits in `limitBytes`. Saved chapters are never dropped.
export function evictions(items, limitBytes) {
  let total = totalBytes(items);
  const opened = Object.values(items)
    .filter((entry) => !entry.saved)
    .sort((a, b) => (a.readAt || 0) - (b.readAt || 0));
  const dropped = [];
  for (const entry of opened) {
    if (total <= limitBytes) break;
    dropped.push(entry.path);
    total -= entry.bytes || 0;
  }
  return dropped;
}

export const limitBytes = (limitMb) => limitMb * MB;

export function entryUrls(entry) {
  return [...(entry.paths || []), entry.seriesUrl, ...(entry.files || []), ...(entry.extras || [])];
}

// The images a page's HTML shows (<img> src and srcset): a title page's
// cover. In a <picture> with an AVIF <source>, a browser that shows AVIF
// (`avif`) takes the source's files instead of its <img>'s.
export function imageUrls(html, avif = false) {
  const urls = new Set();
  const candidates = (srcset) => (srcset ? srcset[1].split(",") : []).map((part) => part.trim().split(/\s+/)[0]);
  let source = null; // the AVIF files of the <picture> being read
  for (const tag of html.match(/<(?:img|source|\/picture)\b[^>]*>/g) || []) {
    if (tag.startsWith("</")) {
      source = null;
    } else if (tag.startsWith("<source")) {
      if (avif && /\stype="image\/avif"/i.test(tag)) source = candidates(/\ssrcset="([^"]+)"/i.exec(tag));
    } else if (source && source.length) {
      for (const url of source) if (url) urls.add(url);
      source = null;
    } else {
      const src = /\ssrc="([^"]+)"/.exec(tag);
      if (src) urls.add(src[1]);
      for (const url of candidates(/\ssrcset="([^"]+)"/i.exec(tag))) if (url) urls.add(url);
    }
  }
  return [...urls].map((url) => url.replace(/&amp;/g, "&")).filter((url) => !url.startsWith("data:"));
}

// The cached URLs `removed` entries alone use: what deleting them frees.
export function filesToDelete(items, removed) {
  const gone = new Set(removed);
  const used = new Set();
  for (const entry of Object.values(items)) {
    if (gone.has(entry.path)) continue;
    for (const url of entryUrls(entry)) used.add(url);
  }
  const urls = new Set();
  for (const path of removed) {
    const entry = items[path];
    if (!entry) continue;
    for (const url of entryUrls(entry)) {
      if (url && !used.has(url)) urls.add(url);
    }
  }
  return [...urls];
}

// The index entry of the reader path `path`, or of any path naming the same chapter.
export function entryFor(items, path) {
  return items[path] || Object.values(items).find((entry) => (entry.paths || []).includes(path)) || null;
}

// The series' chapters to save for 「未読の次のN話」: in reading order, the
// first `count` not read to the end. `chapters` are newest first (the title
// page's order), each {number, url, label}; `read` the numbers read.
export function nextUnread(chapters, read, count) {
  const done = new Set(read || []);
  return [...chapters]
    .reverse()
    .filter((chapter) => !done.has(chapter.number))
    .slice(0, Math.max(0, count | 0));
}

// The reader's states in a reader page's HTML (the server renders the page
// with them, manga_app/ssr): what saving a chapter needs, or null.
export function readerSeed(html) {
  const found = /<script id="page-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  if (!found) return null;
  let states;
  try {
    states = JSON.parse(found[1]);
  } catch (error) {
    return null;
  }
  const reader = Object.values(states || {}).find((state) => state && Array.isArray(state.pages_rx_state_));
  if (!reader || reader.pages_rx_state_.length === 0) return null;
  return {
    pages: reader.pages_rx_state_,
    path: reader.loaded_path_rx_state_ || "",
    chapterUrl: reader.chapter_url_rx_state_ || "",
    seriesUrl: reader.series_url_rx_state_ || "",
    seriesTitle: reader.series_title_rx_state_ || "",
    slug: reader.series_slug_rx_state_ || "",
    number: reader.chapter_number_rx_state_ || "",
    label: reader.chapter_label_rx_state_ || "",
  };
}

// The page images to keep, at the reader's quality (the data saver's when
// on): the AVIF where the page has one and the browser shows AVIF (`avif`),
// as its <picture> does (assets/js/reader/pages.jsx; on `screen`, the
// high-DPI one where the reader takes it), else the JPEG/WebP.
export function pageFiles(pages, saver, avif = false, screen = null) {
  return pages
    .map((page) => {
      const fallback = saver && page.saver_url ? page.saver_url : page.url;
      const copy = pageAvif(page, { saver, screen });
      return avif && copy ? copy : fallback;
    })
    .filter(Boolean);
}

// The outbox after a position read offline (`at`: the device's clock, ms).
export function withReport(items, path, page, offset, at) {
  const previous = items[path];
  const furthest = Math.max(page, previous ? previous.furthest || 0 : 0);
  const updated = { ...items, [path]: { page, offset, at, furthest } };
  const paths = Object.keys(updated);
  if (paths.length <= MAX_OUTBOX) return updated;
  paths.sort((a, b) => updated[b].at - updated[a].at);
  return Object.fromEntries(paths.slice(0, MAX_OUTBOX).map((key) => [key, updated[key]]));
}

// The outbox once the server took every report read up to `through` (ms).
export function withoutSent(items, through) {
  return Object.fromEntries(Object.entries(items).filter(([, report]) => report.at > through));
}

// The outbox as the upload event takes it, oldest first.
export function reports(items) {
  return Object.entries(items)
    .map(([path, report]) => ({ path, ...report }))
    .sort((a, b) => a.at - b.at);
}

export function formatBytes(bytes) {
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

// A position read while offline joins the outbox (uploaded once online).
export function keepOfflineReport(path, page, offset, at) {
  try {
    writeOutbox(withReport(readOutbox(), path, page, offset, at));
  } catch (error) {
    // Storage full or disabled: the position itself is still in positions.js.
  }
}

// The chapters of `slug` this browser's history has as read (state/reading.py's store).
export function readMarks(slug) {
  try {
    const history = JSON.parse(localStorage.getItem(HISTORY_STORAGE_KEY) || "[]");
    const entry = Array.isArray(history) ? history.find((item) => item && item.slug === slug) : null;
    return entry && Array.isArray(entry.read) ? entry.read.map(String) : [];
  } catch (error) {
    return [];
  }
}

// The data saver, from the reader's settings cookie (manga_app/reader/rules.py).
const SETTINGS_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${SETTINGS_COOKIE}=([^;]*)`);

export function saverFromCookie(cookie) {
  const found = SETTINGS_COOKIE_VALUE.exec(cookie || "");
  if (!found) return false;
  try {
    return !!JSON.parse(decodeURIComponent(found[1])).saver;
  } catch (error) {
    return false;
  }
}

// The shelves after the account `owner`'s `kind` ("history" or "library")
// was seen online as `cards` at `at` (ms); `owner` "" (signed out): none.
export function withShelf(shelves, owner, kind, cards, at) {
  if (!owner) return {};
  const mine = shelves.last === owner ? shelves[owner] || {} : {};
  return { last: owner, [owner]: { ...mine, [kind]: cards, at } };
}

// The signed-in account's `kind` as last seen online: {cards, at}, or null.
export function lastShelf(shelves, kind) {
  const mine = shelves.last ? shelves[shelves.last] : null;
  return mine && Array.isArray(mine[kind]) ? { cards: mine[kind], at: mine.at || 0 } : null;
}
