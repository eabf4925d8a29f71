// オフライン保存: on the title page and in the reader, one chapter or volume
// (each row of the title page's lists, the reader's own) or the next N
// unread ones of the series. In the reader, the pages of the chapter
// opened that the browser downloaded are also kept, as they load, without
// asking (least recently read out first, within the reader's size limit).
import React, { useEffect, useState, useSyncExternalStore } from "react";
import { useLocation } from "react-router";
import { INDEX_KEY, entryFor, nextUnread, readIndex, readMarks, saverFromCookie } from "./store.js";
import { CHANGED_EVENT, SaveError, keepChapter, offlineSupported, removeChapters, touch } from "./save.js";
import { useHydrated } from "../hydrated.js";
import { useOnline } from "./root.jsx";
import { notify } from "../notify.js";

const COUNTS = [1, 3, 5, 10];
// How often a keep waiting for the reader's pages looks again.
const IDLE_CHECK_MS = 500;

async function saveAll(paths, saver) {
  let saved = 0;
  for (const path of paths) {
    try {
      await keepChapter(path, { saver, saved: true });
      saved += 1;
    } catch (error) {
      const why = error instanceof SaveError ? error.message
        : error && error.name === "QuotaExceededError" ? "端末の空き容量が足りません。保存した話を削除してからお試しください。"
          : "もう一度お試しください。";
      notify("error", "オフライン保存できませんでした", why);
      return saved;
    }
  }
  return saved;
}

// The index as React reads it: one object while localStorage holds the same
// text, empty on the server and while hydrating (so the markup matches).
// Nothing kept reads as the server's own object: a snapshot that differs
// from the server's while hydrating makes React re-render every row at once,
// synchronously, in the task that commits the hydration.
const NOTHING_KEPT = {};
let indexText = null;
let indexItems = NOTHING_KEPT;

function indexSnapshot() {
  const text = localStorage.getItem(INDEX_KEY);
  if (text !== indexText) {
    indexText = text;
    const items = readIndex();
    indexItems = Object.keys(items).length ? items : NOTHING_KEPT;
  }
  return indexItems;
}

function subscribeIndex(callback) {
  window.addEventListener(CHANGED_EVENT, callback);
  window.addEventListener("storage", callback); // another tab saved or deleted
  return () => {
    window.removeEventListener(CHANGED_EVENT, callback);
    window.removeEventListener("storage", callback);
  };
}

function useIndex() {
  return useSyncExternalStore(subscribeIndex, indexSnapshot, () => NOTHING_KEPT);
}

// `what` names what was saved in the notice (`第3巻`); by default the count of chapters.
function useSaving() {
  const [busy, setBusy] = useState(false);
  const run = async (paths, saver, what = "") => {
    if (busy || !paths.length) return 0;
    setBusy(true);
    try {
      const saved = await saveAll(paths, saver);
      if (saved) notify("success", `${what || `${saved}話`}をオフライン保存しました`, "接続がなくても「保存した話」から読めます。");
      return saved;
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}

// `chapters`: the candidates, newest first. `disabled` until it can save.
function NextUnread({ chapters, read = [], saver, slug = "", disabled = false }) {
  const [count, setCount] = useState(3);
  const [busy, run] = useSaving();
  const save = () => {
    const picked = nextUnread(chapters, [...read, ...readMarks(slug)], count);
    if (!picked.length) notify("info", "未読の話はありません");
    else run(picked.map((chapter) => chapter.url), saver());
  };
  return (
    <span className="offline-save-next">
      <select value={count} onChange={(event) => setCount(Number(event.target.value))} aria-label="保存する話数" disabled={disabled}>
        {COUNTS.map((value) => (
          <option key={value} value={value}>
            未読の次の{value}話
          </option>
        ))}
      </select>
      <button type="button" className="offline-save-button" disabled={disabled || busy} onClick={save} data-testid="offline-save-next">
        {busy ? "保存中…" : "をオフライン保存"}
      </button>
    </span>
  );
}

// The title page: the next N unread chapters (`chapters` newest first, `read` their read marks).
export function SeriesOfflineSave({ chapters = [], read = [], slug = "" }) {
  const online = useOnline();
  // The same markup on the server and while hydrating: only `disabled` changes.
  const usable = useHydrated() && online && offlineSupported();
  return (
    <div className="offline-save offline-save-series" data-testid="offline-save">
      <NextUnread chapters={chapters} read={read} slug={slug} saver={() => saverFromCookie(document.cookie)} disabled={!usable} />
    </div>
  );
}

// A row of the title page's chapter or volume list: saves that one (保存),
// or, saved (保存済み), removes it. Drawn by the server, disabled, with the
// same width whatever it says, so nothing moves when the app starts.
export function ChapterOfflineSave({ url = "", label = "" }) {
  const online = useOnline();
  const usable = useHydrated() && offlineSupported();
  const entry = entryFor(useIndex(), url);
  const saved = !!(entry && entry.saved);
  const [busy, run] = useSaving();
  const toggle = async () => {
    if (!saved) {
      await run([url], saverFromCookie(document.cookie), label);
      return;
    }
    await removeChapters([entry.path]);
    notify("success", `${label}をオフライン保存から削除しました`);
  };
  return (
    <button type="button" className={saved ? "chapter-save is-saved" : "chapter-save"} aria-pressed={saved}
      disabled={!usable || busy || (!saved && !online)} onClick={toggle} data-testid="chapter-save"
      title={saved ? "保存済み（押すと削除）" : "オフライン保存"}>
      <span className="visually-hidden">{label}：</span>
      {busy ? "保存中…" : saved ? "保存済み" : "保存"}
    </button>
  );
}

// The chapter being read is kept as its pages load (the worker notes each
// image it fetches), so a page seen opens offline even after a reload or
// with the tab closed, and once more when the reader leaves it or hides the
// tab. The first keep asks the server for the chapter's HTML, once the
// reader has no pages to load (or on leaving or hiding); the later ones use
// the network for nothing. While the reader still has pages to load
// (`pending()`), only the images the worker noted are kept; the HTTP cache
// is asked once it has none. Offline, reading it only moves it last in the
// least-recently-read order. Returns the cleanup.
function keepWhileReading(path, saver, pending) {
  if (!navigator.onLine) {
    touch(path);
    return undefined;
  }
  let fresh = true;
  let running = null;
  let again = null; // null, or whether the next keep may ask the HTTP cache
  // `httpCache`: once the reader has no pages to load, or when leaving or
  // hiding (each ask of the HTTP cache is a request beside the reader's own).
  const keep = (httpCache = true) => {
    if (running) {
      again = again || httpCache;
      return;
    }
    running = keepChapter(path, { saver, saved: false, fresh, httpCache })
      .then((entry) => {
        if (entry) fresh = false;
      }, () => {})
      .finally(() => {
        running = null;
        if (again !== null) {
          const next = again;
          again = null;
          keep(next);
        }
      });
  };
  let timer = null;
  const whenIdle = () => {
    timer = null;
    if (pending()) timer = setTimeout(whenIdle, IDLE_CHECK_MS);
    else keep(true);
  };
  const loaded = (list) => {
    if (!list.getEntries().some((entry) => entry.initiatorType === "img" || entry.initiatorType === "link")) return;
    if (!pending()) keep(true);
    else {
      // The first keep asks the server for the chapter's HTML: not while
      // the reader's own pages still share the link.
      if (!fresh) keep(false);
      if (!timer) timer = setTimeout(whenIdle, IDLE_CHECK_MS);
    }
  };
  const observer = typeof PerformanceObserver === "undefined" ? null : new PerformanceObserver(loaded);
  if (observer) observer.observe({ type: "resource", buffered: true });
  const onHide = () => document.visibilityState === "hidden" && keep();
  document.addEventListener("visibilitychange", onHide);
  return () => {
    if (observer) observer.disconnect();
    clearTimeout(timer);
    document.removeEventListener("visibilitychange", onHide);
    if (navigator.onLine || !fresh) keep();
  };
}

// The reader's one save control: this chapter (the next unread ones are saved
// from the title page; the reader's menu keeps to what reading needs).
// `pending`: how many pages the reader has still to load.
export function ReaderOfflineSave({ chapterUrl = "", saver = false, pending = () => 0 }) {
  const { pathname } = useLocation();
  const online = useOnline();
  const usable = useHydrated() && offlineSupported();
  const saved = !!entryFor(useIndex(), pathname)?.saved;
  const [busy, run] = useSaving();
  // A volume's reader path ends in `-vol` (manga_app/core/routes.py).
  const unit = chapterUrl.endsWith("-vol") ? "巻" : "話";
  useEffect(() => (usable ? keepWhileReading(pathname, saver, pending) : undefined), [pathname, usable]);
  const save = () => run([pathname], saver, `この${unit}`);
  return (
    <div className="offline-save" data-testid="offline-save">
      <button type="button" className="offline-save-button" disabled={!usable || !online || busy || saved} onClick={save}
        data-testid="offline-save-chapter">
        {saved ? "保存済み" : busy ? "保存中…" : `この${unit}をオフライン保存`}
      </button>
    </div>
  );
}
