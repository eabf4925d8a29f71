// /history and /library without a connection: their lists come from the
// server, so offline they show what this browser has itself: its reading
// history (continue links to the chapters it kept) and the series of the
// chapters it kept. Nothing is drawn online, nor on the server.
import React from "react";
import { readIndex } from "./store.js";
import { useInBrowser, useOnline } from "./root.jsx";

function browserHistory() {
  try {
    const history = JSON.parse(localStorage.getItem("manga_reading_history") || "[]");
    return Array.isArray(history) ? history.filter((entry) => entry && typeof entry.slug === "string") : [];
  } catch (error) {
    return [];
  }
}

// The kept chapters of `slug`, by number ("slug/number" keys, store.js).
function keptOf(items, slug) {
  const found = {};
  for (const entry of Object.values(items)) {
    const [entrySlug, number] = (entry.key || "").split("/");
    if (entrySlug === slug) found[number] = entry;
  }
  return found;
}

function useOffline() {
  const inBrowser = useInBrowser();
  const online = useOnline();
  return inBrowser && !online;
}

export function OfflineHistory() {
  if (!useOffline()) return null;
  const items = readIndex();
  const history = browserHistory();
  return (
    <section className="offline-shelf" data-testid="offline-history">
      <p className="shelf-muted">オフラインのため、この端末の閲覧履歴を表示しています。</p>
      <ul className="offline-list" aria-label="この端末の閲覧履歴">
        {history.map((entry) => {
          const kept = keptOf(items, entry.slug)[entry.chapter];
          return (
            <li key={entry.slug} className="offline-item">
              <span className="offline-item-title">{entry.title}</span>
              <span className="offline-item-meta">
                {kept ? kept.label : entry.chapter_title}・{(entry.page || 0) + 1}ページ目
              </span>
              {kept ? <a href={kept.path}>続きを読む</a> : <span className="shelf-muted">保存されていません</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function OfflineLibrary() {
  if (!useOffline()) return null;
  const series = {};
  for (const entry of Object.values(readIndex())) {
    if (entry.seriesUrl) series[entry.seriesUrl] = entry.seriesTitle;
  }
  return (
    <section className="offline-shelf" data-testid="offline-library">
      <p className="shelf-muted">オフラインのため、この端末に保存した話のある作品を表示しています。</p>
      <ul className="offline-list" aria-label="保存した話のある作品">
        {Object.entries(series).map(([url, title]) => (
          <li key={url} className="offline-item">
            <a className="offline-item-title" href={url}>{title}</a>
          </li>
        ))}
      </ul>
      <a href="/offline">保存した話の一覧へ</a>
    </section>
  );
}
