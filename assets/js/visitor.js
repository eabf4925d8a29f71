// This browser's random id: who "a visitor" is for the chapter view count
// (manga_app/engagement/view_counts.py), made here, as the page's scripts load
// and before the app connects, so the app's first event already carries it.
// Made by the server instead, it reached the browser with the server's
// answers; a chapter reloaded before they arrived was counted again under a
// second id. Name and lifetime from Python (shared.js, generated from
// manga_app/core/browser.py); the form is the server's (manga_app/reader/rules.py).
import { COOKIE_SECONDS, VISITOR_COOKIE } from "./shared.js";

export { VISITOR_COOKIE };
export const VISITOR_COOKIE_SECONDS = COOKIE_SECONDS;
const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/;

// 18 random bytes as URL-safe base64 (24 characters), as Python's secrets.token_urlsafe(18).
export function newVisitorId(random = globalThis.crypto) {
  const bytes = random.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

export function visitorIdOf(cookies) {
  const found = cookies.split("; ").find((item) => item.startsWith(`${VISITOR_COOKIE}=`));
  const value = found ? found.slice(VISITOR_COOKIE.length + 1) : "";
  return VISITOR_ID.test(value) ? value : "";
}

// The id this browser has, made first when it has none (or one this site does not make).
export function ensureVisitorId(doc = globalThis.document) {
  const known = visitorIdOf(doc.cookie);
  if (known) return known;
  const made = newVisitorId();
  doc.cookie = `${VISITOR_COOKIE}=${made}; path=/; max-age=${VISITOR_COOKIE_SECONDS}; samesite=lax`;
  return made;
}

if (typeof document !== "undefined") ensureVisitorId();

// An app wrap (manga_app/ui/visitor.py), so this module loads on every page.
export function VisitorId({ children }) {
  return children;
}
