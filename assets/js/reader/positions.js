// The visitor's position in every chapter they opened, kept in this browser
// (localStorage), written by the reader itself the moment it changes: a
// reload, a closed tab or a lost connection never loses it, and any chapter
// reopens where it was left, not only the series' last one. No React here.
//
// Format: {"v": 1, "items": {"<slug>/<number>": [page, offset, savedAtMs]}}.

import { COOKIE_SECONDS, FIRST_PAGE_COOKIE, POSITIONS_STORAGE_KEY } from "../shared.js";
import { currentScreen, screenText } from "../image_formats.js";

export { FIRST_PAGE_COOKIE };
export const POSITIONS_KEY = POSITIONS_STORAGE_KEY;
export const MAX_POSITIONS = 300;
// What the server may know before any script runs, so the first HTML
// response can preload the page this visitor will see first, in the quality
// they read in (manga_app/reader/rules.py first_page_hint): the chapter read
// last and its page. Kept small: it goes with every request to the site.
// Its name and lifetime come from Python (shared.js).

function readAll() {
  try {
    const raw = JSON.parse(localStorage.getItem(POSITIONS_KEY) || "null");
    if (raw && raw.v === 1 && raw.items && typeof raw.items === "object") return raw.items;
  } catch (error) {
    // A visitor can edit localStorage: garbage is an empty store.
  }
  return {};
}

function valid(entry) {
  return (
    Array.isArray(entry) &&
    Number.isInteger(entry[0]) && entry[0] >= 0 &&
    typeof entry[1] === "number" && entry[1] >= 0 && entry[1] <= 1 &&
    typeof entry[2] === "number" && entry[2] > 0
  );
}

export function readPosition(key) {
  const entry = readAll()[key];
  return valid(entry) ? { page: entry[0], offset: entry[1], at: entry[2] } : null;
}

export function writePosition(key, page, offset, at = Date.now()) {
  // Read again before writing: another tab may have saved other chapters.
  const items = readAll();
  items[key] = [page, Math.round(offset * 1000) / 1000, at];
  let kept = Object.entries(items).filter(([, entry]) => valid(entry));
  if (kept.length > MAX_POSITIONS) {
    kept.sort((a, b) => b[1][2] - a[1][2]);
    kept = kept.slice(0, MAX_POSITIONS);
  }
  try {
    localStorage.setItem(POSITIONS_KEY, JSON.stringify({ v: 1, items: Object.fromEntries(kept) }));
  } catch (error) {
    // Storage full or disabled (private mode): the server still gets the report.
  }
}

// Where to open a chapter: this browser's position for it, unless the
// history handed over by the server (another device, signed in) is newer.
// Both carry the device's clock; the history keeps whole seconds. With
// neither, the server's guess (from this browser's first-page cookie), where
// the server drew the page.
export function startPosition(key, fromHistory, total) {
  const stored = readPosition(key);
  const history = fromHistory && fromHistory.at > 0 ? fromHistory : null;
  let chosen = fromHistory || { page: 0, offset: 0 };
  if (stored && !(history && history.at > stored.at + 1000)) chosen = stored;
  else if (history) chosen = history;
  const last = Math.max(total - 1, 0);
  return { page: Math.min(Math.max(chosen.page | 0, 0), last), offset: Math.min(Math.max(+chosen.offset || 0, 0), 1) };
}

// With the screen (image_formats.screenText): the server then names the
// copy of the first page this browser shows (its high-DPI one or not).
export function rememberFirstPage(key, page, saver) {
  if (!key) return;
  const screen = screenText(currentScreen());
  const value = `${saver ? 1 : 0}:${key}:${Math.max(0, page | 0)}${screen ? `:${screen}` : ""}`;
  document.cookie = `${FIRST_PAGE_COOKIE}=${value}; path=/; max-age=${COOKIE_SECONDS}; samesite=lax`;
}
