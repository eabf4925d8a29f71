// オフライン保存: on the title page and in the reader, this chapter (the
// reader's) or the next N unread ones of the series. In the reader, the
// pages of the chapter opened that the browser downloaded are also kept
// when the reader leaves it (least recently read out first, within the
// reader's size limit) without asking.
import React, { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { entryFor, nextUnread, readIndex, readMarks, saverFromCookie } from "./store.js";
import { SaveError, keepChapter, offlineSupported, touch } from "./save.js";
import { useInBrowser, useOnline } from "./root.jsx";

const COUNTS = [1, 3, 5, 10];

function notify(kind, message, description = "") {
  if (window.mangaNotify) window.mangaNotify(kind, message, description);
}

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

function useSaving() {
  const [busy, setBusy] = useState(false);
  const run = async (paths, saver) => {
    if (busy || !paths.length) return 0;
    setBusy(true);
    try {
      const saved = await saveAll(paths, saver);
      if (saved) notify("success", `${saved}話をオフライン保存しました`, "接続がなくても「保存した話」から読めます。");
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
  const usable = useInBrowser() && online && offlineSupported();
  return (
    <div className="offline-save offline-save-series" data-testid="offline-save">
      <NextUnread chapters={chapters} read={read} slug={slug} saver={() => saverFromCookie(document.cookie)} disabled={!usable} />
    </div>
  );
}

// The reader: this chapter, or the next N unread after it (`chapters` in
// reading order, `chapterUrl` this one's).
export function ReaderOfflineSave(props) {
  return useInBrowser() && offlineSupported() ? <ReaderSave {...props} /> : null;
}

function ReaderSave({ chapters = [], chapterUrl = "", saver = false, slug = "" }) {
  const { pathname } = useLocation();
  const online = useOnline();
  const [saved, setSaved] = useState(() => !!entryFor(readIndex(), pathname)?.saved);
  const [busy, run] = useSaving();
  const here = chapters.findIndex((chapter) => chapter.url === chapterUrl);
  const later = (here >= 0 ? chapters.slice(here + 1) : []).reverse();
  useEffect(() => {
    setSaved(!!entryFor(readIndex(), pathname)?.saved);
    if (!navigator.onLine) {
      touch(pathname);
      return undefined;
    }
    // Leaving the chapter (or hiding the tab) keeps the pages read so far.
    const keep = () => navigator.onLine && keepChapter(pathname, { saver, saved: false }).catch(() => {});
    const onHide = () => document.visibilityState === "hidden" && keep();
    document.addEventListener("visibilitychange", onHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      keep();
    };
  }, [pathname]);
  if (!online && !saved) return null;
  const save = async () => {
    if (await run([pathname], saver)) setSaved(true);
  };
  return (
    <div className="offline-save" data-testid="offline-save">
      <button type="button" className="offline-save-button" disabled={busy || saved} onClick={save} data-testid="offline-save-chapter">
        {saved ? "保存済み" : busy ? "保存中…" : "この話をオフライン保存"}
      </button>
      {online && later.length ? <NextUnread chapters={later} saver={() => saver} slug={slug} /> : null}
    </div>
  );
}
