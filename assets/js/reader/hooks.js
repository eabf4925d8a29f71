// Small React hooks of the reader: preloading, saving and reporting the
// position.
import { useCallback, useEffect, useRef } from "react";
import { rememberFirstPage, writePosition } from "./positions.js";

export const PROGRESS_INTERVAL_MS = 2000;
// Offsets inside a page reach the browser store at most this often; a page
// change, hiding the tab and leaving the reader write at once.
export const STORE_INTERVAL_MS = 250;

// Warms the browser cache with `urls` (deduplicated for the reader's life).
// Starts only once `ready` (the first page has arrived) so preloads never
// compete with the page the visitor is waiting for. When the reader goes
// away (another chapter), unfinished preloads are cancelled so they do not
// compete with the next chapter's first page; `keep` (the next chapter's
// own first pages) are left to finish.
export function usePreload(urls, ready, keep = []) {
  const requested = useRef(new Map());
  const kept = useRef(new Set());
  kept.current = new Set(keep);
  const key = urls.join("\n");
  useEffect(() => {
    if (!ready) return;
    for (const url of urls) {
      if (!url || requested.current.has(url)) continue;
      const image = new Image();
      image.decoding = "async";
      image.fetchPriority = "low";
      image.src = url;
      requested.current.set(url, image);
    }
    // `key` stands for `urls`: a new array with the same URLs is no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ready]);
  useEffect(
    () => () => {
      for (const [url, image] of requested.current) {
        // An image whose source is removed stops loading.
        if (!image.complete && !kept.current.has(url)) image.removeAttribute("src");
      }
      requested.current.clear();
    },
    [],
  );
}

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
