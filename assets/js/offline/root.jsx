// Offline reading, once for the whole app (an app wrap): registers the
// worker, says when there is no connection, turns links into full page
// loads while offline (the worker answers those from what was saved; the
// app's own navigation would wait for a server that cannot answer), uploads
// the reading done offline when the connection is back, and drops saved
// chapters that were unpublished meanwhile, with a note.
import React, { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { readIndex, readOutbox, reports, withoutSent, writeOutbox } from "./store.js";
import { removeChapters } from "./save.js";
import { registerWorker } from "./register.js";

export const OFFLINE_NOTICE = "オフラインです。保存した話だけ読めます";
const CONNECTION_NOTICE = "サーバーに接続できません。再接続しています…";
const CHECKED_KEY = "manga_offline_checked";
// The check for unpublished chapters waits this long after the page opened.
const CHECK_DELAY_MS = 3000;

function subscribe(callback) {
  window.addEventListener("online", callback);
  window.addEventListener("offline", callback);
  return () => {
    window.removeEventListener("online", callback);
    window.removeEventListener("offline", callback);
  };
}

// Online while rendering on the server and hydrating (the HTML is the same
// for everyone); the browser's own answer after that.
export function useOnline() {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}

function fullLoads(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin) return;
  event.preventDefault();
  event.stopPropagation();
  window.location.assign(url.href);
}

async function unpublished() {
  const gone = [];
  for (const entry of Object.values(readIndex())) {
    try {
      const response = await fetch(entry.path, { method: "HEAD", credentials: "same-origin" });
      if (response.status === 404) gone.push(entry);
    } catch (error) {
      return gone; // the connection went again
    }
  }
  return gone;
}

export function OfflineRoot({ syncedThrough = 0, connectionLost = false, authKnown = false, onUpload }) {
  const online = useOnline();
  const [notes, setNotes] = useState([]);
  useEffect(registerWorker, []);
  useEffect(() => {
    if (online) return undefined;
    window.addEventListener("click", fullLoads, true);
    // Parts that wait for the server (読み込み中…) are hidden meanwhile (offline.css).
    document.documentElement.dataset.offline = "true";
    return () => {
      window.removeEventListener("click", fullLoads, true);
      delete document.documentElement.dataset.offline;
    };
  }, [online]);
  useEffect(() => {
    // Once the server knows who is signed in (so the reading reaches their
    // account), which is after the app's connection is back.
    if (!online || !authKnown) return;
    const outbox = reports(readOutbox());
    if (outbox.length && onUpload) onUpload(outbox);
  }, [online, authKnown]);
  useEffect(() => {
    if (syncedThrough > 0) writeOutbox(withoutSent(readOutbox(), syncedThrough));
  }, [syncedThrough]);
  useEffect(() => {
    if (!online || sessionStorage.getItem(CHECKED_KEY)) return undefined;
    const timer = setTimeout(async () => {
      sessionStorage.setItem(CHECKED_KEY, "1");
      const gone = await unpublished();
      if (!gone.length) return;
      await removeChapters(gone.map((entry) => entry.path));
      setNotes(gone.map((entry) => `「${entry.seriesTitle} ${entry.label}」は公開が終了したため、保存から削除しました。`));
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [online]);
  const dismiss = useCallback(() => setNotes([]), []);
  return (
    <>
      {online ? null : (
        <div className="offline-banner" role="status" data-testid="offline-banner">
          {OFFLINE_NOTICE}
          <a href="/offline">保存した話</a>
        </div>
      )}
      {online && connectionLost ? (
        <div className="offline-banner" role="status" data-testid="connection-banner">
          {CONNECTION_NOTICE}
        </div>
      ) : null}
      {notes.length ? (
        <div className="offline-note" role="status" data-testid="offline-note">
          {notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
          <button type="button" onClick={dismiss}>
            閉じる
          </button>
        </div>
      ) : null}
    </>
  );
}
