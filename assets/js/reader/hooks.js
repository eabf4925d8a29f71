// Small React hooks of the reader: saving and reporting the position,
// telling the app the end is near. (Loading the pages: loading.js.)
import { useCallback, useEffect, useRef } from "react";
import { rememberFirstPage, writePosition } from "./positions.js";
import { keepOfflineReport } from "../offline/store.js";

export const PROGRESS_INTERVAL_MS = 2000;
// Offsets inside a page reach the browser store at most this often; a page
// change, hiding the tab and leaving the reader write at once.
export const STORE_INTERVAL_MS = 250;

// The reading position: written to the browser's per-chapter store
// (`storeKey`) straight away (and, with the quality, to the cookie the
// server reads for the next first page), and reported to the server
// (`onProgress`) at most once per PROGRESS_INTERVAL_MS, at once when the
// page changes, and a last time when the tab is hidden or closed or the
// reader goes away.
export function useProgressReporter(storeKey, onProgress, saver = false) {
  const latest = useRef(null);
  const stored = useRef(null);
  const sent = useRef({ page: -1, offset: -1, at: 0, sentAt: 0 });
  const storeTimer = useRef(null);
  const sendTimer = useRef(null);
  const callback = useRef(onProgress);
  callback.current = onProgress;
  const quality = useRef(saver);
  quality.current = saver;

  const store = useCallback(() => {
    clearTimeout(storeTimer.current);
    storeTimer.current = null;
    const position = latest.current;
    if (!position || position === stored.current || !storeKey) return;
    writePosition(storeKey, position.page, position.offset, position.at);
    rememberFirstPage(storeKey, position.page, quality.current);
    stored.current = position;
  }, [storeKey]);

  const send = useCallback(() => {
    clearTimeout(sendTimer.current);
    sendTimer.current = null;
    const position = latest.current;
    if (!position || position.at === sent.current.at) return;
    sent.current = { ...position, sentAt: Date.now() };
    // Without a connection the report waits in the outbox too (uploaded once online).
    if (navigator.onLine === false) keepOfflineReport(window.location.pathname, position.page, Math.round(position.offset * 1000) / 1000, position.at);
    if (callback.current) callback.current(position.page, Math.round(position.offset * 1000) / 1000, position.at);
  }, []);

  const report = useCallback(
    (page, offset) => {
      const previous = latest.current;
      if (previous && previous.page === page && Math.abs(offset - previous.offset) < 0.001) return;
      latest.current = { page, offset, at: Date.now() };
      if (!previous || previous.page !== page) {
        store();
        send();
        return;
      }
      if (!storeTimer.current) storeTimer.current = setTimeout(store, STORE_INTERVAL_MS);
      const wait = sent.current.sentAt + PROGRESS_INTERVAL_MS - Date.now();
      if (wait <= 0) send();
      else if (!sendTimer.current) sendTimer.current = setTimeout(send, wait);
    },
    [store, send],
  );

  useEffect(() => {
    const flush = () => {
      store();
      send();
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") flush();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", onVisibility);
      flush();
    };
  }, [store, send]);

  return report;
}

// The reports of one opening of a chapter that do not wait for the visitor
// to move: the first (the server's history learns which position this
// opening really started from; this browser may know a newer one), and a
// second when this opening's own view id arrives (hydrated from the
// server's render, it comes with the live state a moment later, and the
// server drops reports of another opening).
export function useOpeningReports({ report, sendProgress, viewId, position }) {
  useEffect(() => {
    report(position.current.page, position.current.offset);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const reportedView = useRef(viewId);
  useEffect(() => {
    if (viewId === reportedView.current) return;
    reportedView.current = viewId;
    sendProgress(position.current.page, Math.round(position.current.offset * 1000) / 1000, Date.now());
  }, [viewId, sendProgress, position]);
}

// The next chapter's first pages are fetched from this share of the chapter on.
const NEAR_END_SHARE = 0.75;

// `onNearEnd`, once per opening, when the visitor reaches that share of a
// chapter that has a next one.
export function useNearEnd({ page, total, nextUrl, onNearEnd }) {
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !nextUrl || total === 0) return;
    if (page + 1 >= Math.ceil(total * NEAR_END_SHARE)) {
      sent.current = true;
      if (onNearEnd) onNearEnd();
    }
  }, [page, total, nextUrl, onNearEnd]);
}
