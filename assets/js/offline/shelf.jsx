// The /offline page's list: the chapters kept for reading offline (saved,
// or opened and kept within the size limit), their sizes, delete and delete
// all, and the size limit. Drawn in the browser only: the list is this
// browser's own.
import React, { useCallback, useEffect, useState } from "react";
import {
  DEFAULT_LIMIT_MB, LIMIT_KEY, formatBytes, parseLimit, readIndex, readLimitMb, totalBytes,
} from "./store.js";
import { CHANGED_EVENT, removeChapters, trim } from "./save.js";
import { useHydrated } from "../hydrated.js";

function byRecent(items) {
  return Object.values(items).sort((a, b) => (b.readAt || 0) - (a.readAt || 0));
}

function Item({ entry, onDelete }) {
  return (
    <li className="offline-item" data-testid="offline-item">
      <a className="offline-item-title" href={entry.path}>
        {entry.seriesTitle} {entry.label}
      </a>
      <span className="offline-item-meta">
        {entry.saved ? "保存" : "最近読んだ話"}・{entry.files ? entry.files.length : 0}ページ・{formatBytes(entry.bytes || 0)}
      </span>
      {entry.seriesUrl ? (
        <a className="offline-item-series" href={entry.seriesUrl}>
          作品ページ
        </a>
      ) : null}
      <button type="button" className="shelf-remove" onClick={() => onDelete([entry.path])} data-testid="offline-delete">
        削除
      </button>
    </li>
  );
}

function LimitSetting({ onChange }) {
  const [text, setText] = useState(() => String(readLimitMb()));
  const [error, setError] = useState("");
  const submit = (event) => {
    event.preventDefault();
    const value = parseLimit(text);
    if (value === null) {
      setError("1〜100000 の数字（MB）を入れてください");
      return;
    }
    setError("");
    localStorage.setItem(LIMIT_KEY, String(value));
    onChange();
  };
  return (
    <form className="offline-limit" onSubmit={submit} noValidate>
      <label>
        最近読んだ話を残す容量（MB）
        <input type="number" min="1" max="100000" inputMode="numeric" value={text}
          onChange={(event) => setText(event.target.value)} data-testid="offline-limit" />
      </label>
      <button type="submit" className="shelf-remove">変更</button>
      {error ? <p className="offline-error" role="alert">{error}</p> : null}
      <p className="shelf-muted">既定は {DEFAULT_LIMIT_MB} MB。超えると、読んだのが古い話から削除されます（保存した話は残ります）。</p>
    </form>
  );
}

function List() {
  const [items, setItems] = useState(readIndex);
  const [estimate, setEstimate] = useState(null);
  const [confirming, setConfirming] = useState(false);
  const refresh = useCallback(() => {
    setItems(readIndex());
    if (navigator.storage && navigator.storage.estimate) navigator.storage.estimate().then(setEstimate, () => {});
  }, []);
  useEffect(() => {
    refresh();
    // Chapters removed elsewhere (unpublished ones, once online) leave the list too.
    window.addEventListener(CHANGED_EVENT, refresh);
    return () => window.removeEventListener(CHANGED_EVENT, refresh);
  }, [refresh]);
  const remove = async (paths) => {
    await removeChapters(paths);
    setConfirming(false);
    refresh();
  };
  const entries = byRecent(items);
  return (
    <div className="offline-shelf" data-testid="offline-shelf">
      <p className="shelf-muted" data-testid="offline-total">
        {entries.length}話・{formatBytes(totalBytes(items))}
        {estimate && estimate.quota ? `（端末の空き: ${formatBytes(Math.max(0, estimate.quota - estimate.usage))}）` : ""}
      </p>
      {entries.length ? (
        <ul className="offline-list" aria-label="保存した話">
          {entries.map((entry) => (
            <Item key={entry.path} entry={entry} onDelete={remove} />
          ))}
        </ul>
      ) : (
        <p className="shelf-empty" data-testid="offline-empty">
          保存した話はまだありません。作品ページか読んでいる話の「オフライン保存」で保存できます。
        </p>
      )}
      {entries.length ? (
        confirming ? (
          <p className="shelf-clear-confirm">
            保存した話をすべて削除しますか？
            <button type="button" className="shelf-remove shelf-remove-strong" onClick={() => remove(entries.map((entry) => entry.path))}
              data-testid="offline-delete-all">
              削除する
            </button>
          </p>
        ) : (
          <button type="button" className="shelf-clear" onClick={() => setConfirming(true)} data-testid="offline-delete-all-open">
            すべて削除
          </button>
        )
      ) : null}
      <LimitSetting onChange={() => trim().then(refresh)} />
    </div>
  );
}

export function OfflineShelf() {
  return useHydrated() ? <List /> : <p className="shelf-empty shelf-muted">読み込み中…</p>;
}
