// Offline reading, once for the whole app (an app wrap): registers the
// worker, says when there is no connection, turns links into full page
// loads while offline (the worker answers those from what was saved; the
// app's own navigation would wait for a server that cannot answer), uploads
// the reading done offline when the connection is back, and drops saved
// chapters that were unpublished meanwhile, with a note.
import React, { useCallback, useEffect, useSyncExternalStore } from "react";
import { NOTES_KEY, readIndex, readOutbox, reports, withoutSent, writeOutbox } from "./store.js";
import { removeChapters } from "./save.js";
import { registerWorker } from "./register.js";
import { useAnswersLate } from "../delivery.js";

export const OFFLINE_NOTICE = "オフラインです。保存した話だけ読めます";
const CONNECTION_NOTICE = "サーバーに接続できません。再接続しています…";
// Connected, but the server has not answered for a while (delivery.js): what
// the reader did is kept and reaches the server once it answers again.
const LATE_NOTICE = "接続を回復しています。操作は保存され、回復後に反映されます…";
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
      const response = await fetch(entry.path, { method: "HEAD", credentials: "same-origin", cache: "no-store" });
      if (response.status === 404) gone.push(entry);
    } catch (error) {
      return gone; // the connection went again
    }
  }
  return gone;
}

// The check runs once per tab session, whatever the app does with its
// components meanwhile (a remount must neither run it twice nor lose what it
// found): its notes are kept in the tab's sessionStorage until dismissed, and
// every mounted root shows them.
const NOTES_EVENT = "manga-offline-notes";
let checking = null;

function readNotes() {
  return sessionStorage.getItem(NOTES_KEY) || "[]";
}

function writeNotes(notes) {
  if (notes.length) sessionStorage.setItem(NOTES_KEY, JSON.stringify(notes));
  else sessionStorage.removeItem(NOTES_KEY);
  window.dispatchEvent(new Event(NOTES_EVENT));
}

function subscribeNotes(callback) {
  window.addEventListener(NOTES_EVENT, callback);
  return () => window.removeEventListener(NOTES_EVENT, callback);
}

function checkUnpublishedOnce() {
  if (checking || sessionStorage.getItem(CHECKED_KEY)) return;
  checking = (async () => {
    const gone = await unpublished();
    if (gone.length) {
      await removeChapters(gone.map((entry) => entry.path));
      const notes = gone.map((entry) => `「${entry.seriesTitle} ${entry.label}」は公開が終了したため、保存から削除しました。`);
      writeNotes([...JSON.parse(readNotes()), ...notes]);
    }
    sessionStorage.setItem(CHECKED_KEY, "1");
  })().finally(() => {
    checking = null;
  });
}

export function OfflineRoot({ syncedThrough = 0, connectionLost = false, authKnown = false, onUpload }) {
  const online = useOnline();
  const late = useAnswersLate();
  const notes = JSON.parse(useSyncExternalStore(subscribeNotes, readNotes, () => "[]"));
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
    if (!online) return undefined;
    const timer = setTimeout(checkUnpublishedOnce, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [online]);
  const dismiss = useCallback(() => writeNotes([]), []);
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
      {online && !connectionLost && late ? (
        <div className="offline-banner offline-banner-passive" role="status" data-testid="reconnecting-banner">
          {LATE_NOTICE}
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
