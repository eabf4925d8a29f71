// Offline reading, once for the whole app (an app wrap): registers the
// worker, says when there is no connection, and turns links into full page
// loads while offline (the worker answers those from what was saved; the
// app's own navigation would wait for a server that cannot answer).
import React, { useEffect, useSyncExternalStore } from "react";
import { registerWorker } from "./register.js";

export const OFFLINE_NOTICE = "オフラインです。保存した話だけ読めます";
const CONNECTION_NOTICE = "サーバーに接続できません。再接続しています…";

function subscribe(callback) {
  window.addEventListener("online", callback);
  window.addEventListener("offline", callback);
  return () => {
    window.removeEventListener("online", callback);
    window.removeEventListener("offline", callback);
  };
}

const noSubscription = () => () => {};
// False while rendering on the server and hydrating, true after.
export function useInBrowser() {
  return useSyncExternalStore(noSubscription, () => true, () => false);
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

export function OfflineRoot({ connectionLost = false }) {
  const online = useOnline();
  useEffect(registerWorker, []);
  useEffect(() => {
    if (online) return undefined;
    window.addEventListener("click", fullLoads, true);
    return () => window.removeEventListener("click", fullLoads, true);
  }, [online]);
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
    </>
  );
}
