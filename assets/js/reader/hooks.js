// Small React hooks of the reader: preloading, throttled progress reports,
// the viewport size.
import { useCallback, useEffect, useRef, useState } from "react";

export const PROGRESS_INTERVAL_MS = 2000;

// Warms the browser cache with `urls` (deduplicated for the reader's life).
// Starts only once `ready` (the first page has arrived) so preloads never
// compete with the page the visitor is waiting for.
export function usePreload(urls, ready) {
  const requested = useRef(new Set());
  const key = urls.join("\n");
  useEffect(() => {
    if (!ready) return;
    for (const url of urls) {
      if (!url || requested.current.has(url)) continue;
      requested.current.add(url);
      const image = new Image();
      image.decoding = "async";
      image.src = url;
    }
    // `key` stands for `urls`: a new array with the same URLs is no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ready]);
}

// Reports the position at most once per PROGRESS_INTERVAL_MS, at once when
// the page changes, and a last time when the reader goes away.
export function useProgressReporter(onProgress) {
  const last = useRef({ page: -1, offset: 0, at: 0 });
  const pending = useRef(null);
  const timer = useRef(null);

  const send = useCallback(
    (position) => {
      clearTimeout(timer.current);
      timer.current = null;
      pending.current = null;
      last.current = { ...position, at: Date.now() };
      if (onProgress) onProgress(position.page, Math.round(position.offset * 1000) / 1000);
    },
    [onProgress],
  );

  const report = useCallback(
    (page, offset) => {
      const previous = last.current;
      if (page === previous.page && Math.abs(offset - previous.offset) < 0.001) return;
      const position = { page, offset };
      const wait = previous.at + PROGRESS_INTERVAL_MS - Date.now();
      if (page !== previous.page || wait <= 0) {
        send(position);
        return;
      }
      pending.current = position;
      if (!timer.current) timer.current = setTimeout(() => send(pending.current), wait);
    },
    [send],
  );

  useEffect(() => {
    const flush = () => {
      if (pending.current) send(pending.current);
    };
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, [send]);

  return report;
}

export function useViewport() {
  const read = () => ({ width: window.innerWidth, height: window.innerHeight });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const update = () => setSize(read());
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return size;
}
