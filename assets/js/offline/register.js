// The service worker is registered after the page's load event, so the
// first visit never shares its network or main thread with it.
export function registerWorker() {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  // `make dev`: Vite's port has no /sw.js (the backend serves it, on the next
  // port), and the registration only put a MIME-type error in the console.
  if (import.meta.env.DEV) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") setTimeout(register, 0);
  else window.addEventListener("load", register, { once: true });
}
