// /history and /library without a connection: their lists come from the
// server, so offline they show, for a signed-in reader, the account's lists
// as last seen online (remembered here whenever the page shows them), else
// what this browser has itself: its reading history and the series of the
// chapters it kept. Offline, only kept chapters (and the title pages kept
// with them) are links. Nothing is drawn online, nor on the server.
import React, { useEffect } from "react";
import { entryFor, lastShelf, readIndex, readShelves, withShelf, writeShelves } from "./store.js";
import { useHydrated } from "../hydrated.js";
import { useOnline } from "./root.jsx";
import { HISTORY_STORAGE_KEY, LIBRARY_OWNER_STORAGE_KEY } from "../shared.js";

function browserHistory() {
  try {
    const history = JSON.parse(localStorage.getItem(HISTORY_STORAGE_KEY) || "[]");
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

// The account whose library this browser holds (LibraryState.owner, "" once
// signed out): offline, its shelves are shown, and no one else's.
const OWNER_KEY = LIBRARY_OWNER_STORAGE_KEY;

// Online, once the server said whose library the browser holds (`owner`)
// and drew their `cards`: remembered for offline (forgotten on sign-out).
// Offline: true.
function useShelf(kind, cards, owner, known) {
  const inBrowser = useHydrated();
  const online = useOnline();
  useEffect(() => {
    if (!inBrowser || !online || !known) return;
    try {
      writeShelves(withShelf(readShelves(), owner, kind, cards, Date.now()));
    } catch (error) {
      // Storage full or disabled: offline shows the browser's own lists.
    }
  }, [inBrowser, online, known, owner, cards]);
  return inBrowser && !online;
}

function accountShelf(kind) {
  const shelves = readShelves();
  return shelves.last && shelves.last === localStorage.getItem(OWNER_KEY) ? lastShelf(shelves, kind) : null;
}

function seenAt(at) {
  return new Date(at).toLocaleString("ja-JP", { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

// The series' title page when it was kept with a chapter, else its plain title.
function Title({ url, title, kept }) {
  return kept.has(url) ? <a className="offline-item-title" href={url}>{title}</a> : <span className="offline-item-title">{title}</span>;
}

// 続きを読む when the chapter was kept (`href`), else a note that it was not.
function Continue({ href }) {
  return href ? <a href={href}>続きを読む</a> : <span className="shelf-muted">保存されていません</span>;
}

function keptSeries(items) {
  return new Set(Object.values(items).map((entry) => entry.seriesUrl).filter(Boolean));
}

function AccountHistory({ shelf, items }) {
  const kept = keptSeries(items);
  return (
    <section className="offline-shelf" data-testid="offline-account-history">
      <p className="shelf-muted">オフラインのため、{seenAt(shelf.at)}時点のアカウントの閲覧履歴を表示しています。保存した話だけ開けます。</p>
      <ul className="offline-list" aria-label="アカウントの閲覧履歴">
        {shelf.cards.map((card) => (
          <li key={card.slug} className="offline-item">
            <Title url={card.url} title={card.title} kept={kept} />
            <span className="offline-item-meta">{card.chapter}・{card.page}</span>
            <Continue href={entryFor(items, card.continue_url) ? card.continue_url : ""} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function OfflineHistory({ items: cards = [], owner = "", known = false }) {
  const offline = useShelf("history", cards, owner, known);
  if (!offline) return null;
  const items = readIndex();
  const account = accountShelf("history");
  if (account) return <AccountHistory shelf={account} items={items} />;
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
              <Continue href={kept ? kept.path : ""} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function OfflineLibrary({ items: cards = [], owner = "", known = false }) {
  const offline = useShelf("library", cards, owner, known);
  if (!offline) return null;
  const items = readIndex();
  const kept = keptSeries(items);
  const account = accountShelf("library");
  if (account) {
    return (
      <section className="offline-shelf" data-testid="offline-account-library">
        <p className="shelf-muted">オフラインのため、{seenAt(account.at)}時点のフォロー中の作品を表示しています。保存した話のある作品だけ開けます。</p>
        <ul className="offline-list" aria-label="フォロー中の作品">
          {account.cards.map((card) => (
            <li key={card.slug} className="offline-item">
              <Title url={card.url} title={card.title} kept={kept} />
              <span className="offline-item-meta">{card.latest}{card.new ? `・${card.new}` : ""}</span>
            </li>
          ))}
        </ul>
        <a href="/offline">保存した話の一覧へ</a>
      </section>
    );
  }
  const series = {};
  for (const entry of Object.values(items)) {
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
