// Notices on the page (antd's notification API, bottom of the screen): any
// of the site's scripts imports `notify`; notices.jsx shows them while
// it is mounted (a notice before that, or after, goes nowhere).
let show = null;

// kind: "success" | "info" | "warning" | "error".
export function notify(kind, message, description = "") {
  if (show) show(kind, message, description);
}

// For the provider: `handler` shows every notice until the returned function is called.
export function showNoticesWith(handler) {
  show = handler;
  return () => {
    if (show === handler) show = null;
  };
}
