// The reader's page loading in reading order, as a React hook: the rule of
// which request comes next is queue.js; here the requests are made, and
// the pages wanted next are decoded ahead so a turn draws at once.
import { useCallback, useEffect, useRef, useState } from "react";
import { URGENT, planLoads } from "./queue.js";

// A preload fallback in case the first page's load event never comes.
const PRELOAD_FALLBACK_MS = 2500;

// Whether the page the reader opened at (`index`) has loaded, or the
// fallback passed: what the queue waits for before it loads the rest. The
// second value is the page's load handler.
export function useFirstLoaded(rootRef, index) {
  const [firstLoaded, setFirstLoaded] = useState(false);
  useEffect(() => {
    // The server's HTML may have brought the first page before hydration,
    // and with it its load event.
    const image = rootRef.current && rootRef.current.querySelector(`img[data-page-index="${index}"]`);
    if (image && image.complete && image.naturalWidth > 0) setFirstLoaded(true);
    const timer = setTimeout(() => setFirstLoaded(true), PRELOAD_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [rootRef, index]);
  const loaded = useCallback(() => setFirstLoaded(true), []);
  return [firstLoaded, loaded];
}

// The open reader's queue: how many of the chapter's wanted pages are not
// loaded yet (the next chapter's first pages aside; 0 with no reader).
// Keeping an opened chapter (offline) waits for 0, so it never asks
// anything beside the reader's own requests.
let openQueue = null;
export function pagesPending() {
  if (!openQueue) return 0;
  const { order, loaded, kept } = openQueue;
  return order.current.filter((url) => url && !loaded.current.has(url) && !kept.current.has(url)).length;
}

// Chromium stops an image's download a task after the image lets go of it
// (a zero-delay timer, posted when the image's update runs in a microtask):
// a request started in the same task would be a fourth on the wire for a
// moment. What comes after a cancellation runs once it has landed.
function afterCancel(run) {
  queueMicrotask(() => setTimeout(run, 0));
}

// Loads `urls` (most wanted first; a new order re-plans), at most
// MAX_IN_FLIGHT at once. Starts once `ready` (the app took over the page
// the server drew). When the reader goes away (another chapter), unfinished
// loads are cancelled so they do not compete with the next chapter's first
// page; `keep` (the next chapter's own first pages) are left to finish.
export function useLoadQueue(urls, ready, keep = []) {
  const images = useRef(new Map());
  const loading = useRef(new Set());
  const loaded = useRef(new Set());
  const order = useRef(urls);
  order.current = urls;
  const kept = useRef(new Set());
  kept.current = new Set(keep);
  const queue = useRef({ order, loaded, kept });
  openQueue = queue.current;
  const cancel = (urls) => {
    for (const url of urls) {
      const image = images.current.get(url);
      // An image whose source is removed stops loading.
      if (image) image.removeAttribute("src");
      images.current.delete(url);
      loading.current.delete(url);
    }
  };
  const pump = useRef(() => {});
  pump.current = () => {
    const plan = planLoads(order.current, loading.current, loaded.current);
    // The requests it starts come once those it cancels have stopped.
    if (plan.cancel.length > 0) {
      cancel(plan.cancel);
      afterCancel(() => pump.current());
      return;
    }
    for (const url of plan.start) {
      const image = new Image();
      const urgent = order.current.indexOf(url) < URGENT;
      image.decoding = "async";
      image.fetchPriority = urgent ? "high" : "low";
      const finish = () => {
        if (images.current.get(url) !== image) return;
        loading.current.delete(url);
        loaded.current.add(url);
        pump.current();
      };
      image.onload = () => {
        // Decoded ahead (and kept: `images` holds it): the turn to this
        // page draws it without waiting.
        if (order.current.indexOf(url) < URGENT && image.decode) image.decode().catch(() => {});
        finish();
      };
      image.onerror = finish;
      images.current.set(url, image);
      loading.current.add(url);
      image.src = url;
    }
  };
  // A page about to be shown that is neither loaded nor loading (a jump
  // ahead): the requests wanted least make room for it before its image
  // asks for it, so no more than MAX_IN_FLIGHT are ever in flight. `show`
  // draws it: at once, or once the cancelled requests have stopped.
  const makeRoom = useCallback((wantedNow, show) => {
    const fresh = wantedNow.filter((url) => url && !loaded.current.has(url) && !loading.current.has(url));
    const rest = order.current.filter((url) => !wantedNow.includes(url));
    const dropped = fresh.length > 0 ? planLoads([...wantedNow, ...rest], loading.current, loaded.current).cancel : [];
    if (dropped.length === 0) {
      show();
      return;
    }
    cancel(dropped);
    afterCancel(show);
  }, []);
  const key = urls.join("\n");
  useEffect(() => {
    if (ready) pump.current();
    // `key` stands for `urls`: a new array with the same URLs is no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ready]);
  useEffect(
    () => () => {
      for (const url of loading.current) {
        const image = images.current.get(url);
        if (image && !kept.current.has(url)) image.removeAttribute("src");
      }
      pump.current = () => {};
      if (openQueue === queue.current) openQueue = null;
      images.current.clear();
      loading.current.clear();
    },
    [],
  );
  return makeRoom;
}
