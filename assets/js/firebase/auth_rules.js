// What the site's auth client (client.jsx) decides without the Firebase SDK:
// which errors mean "try a redirect" or "the visitor cancelled", when a token
// is refreshed, the user object sent to Python, where the emulator is,
// whether the browser holds a signed-in user at all, and the flags that
// survive a redirect sign-in (session storage).

// Where a popup cannot work, the same sign-in runs as a full-page redirect.
export const USE_REDIRECT = new Set([
  "auth/popup-blocked",
  "auth/operation-not-supported-in-environment",
  "auth/web-storage-unsupported",
]);
// The visitor changed their mind: nothing to report.
export const CANCELLED = new Set(["auth/popup-closed-by-user", "auth/cancelled-popup-request", "auth/user-cancelled"]);
// Google's sign-in helper did not load in time (our code, not the SDK's).
export const HELPER_UNREACHABLE = "auth/helper-unreachable";
// How long a sign-in waits for the helper before the visitor is told. It
// loads in a second or two on a working connection.
export const HELPER_WAIT_MS = 8000;

// Has Google's sign-in helper (gapi with its iframes module) loaded?
export function helperLoaded(win) {
  return !!(win.gapi && win.gapi.iframes && win.gapi.iframes.getContext);
}
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
// The backend ends a session when its ID token expires (an hour): a fresh
// token goes up this long before, so a reader never meets the expiry.
const REFRESH_BEFORE_MS = 5 * 60 * 1000;

// How long to wait before refreshing a token that expires at `expiresAtMs`.
export function refreshDelay(expiresAtMs, nowMs) {
  return Math.max(0, expiresAtMs - nowMs - REFRESH_BEFORE_MS);
}

// The spec's user object, exactly these fields.
export function toUser(user) {
  if (!user) return null;
  return {
    googleId: user.uid,
    email: user.email || "",
    name: user.displayName || "",
    avatar: user.photoURL || "",
    isAnonymous: !!user.isAnonymous,
  };
}

// Linking keeps the user but not the Google profile on the account (the SDK
// only shows it locally): the name and photo to save so that tokens carry
// them, or null when there is nothing to save.
export function googleProfile(user) {
  const google = user.providerData.find((info) => info.providerId === "google.com");
  const profile = {};
  const displayName = user.displayName || (google && google.displayName);
  const photoURL = user.photoURL || (google && google.photoURL);
  if (displayName) profile.displayName = displayName;
  if (photoURL) profile.photoURL = photoURL;
  return Object.keys(profile).length ? profile : null;
}

// The emulator as this browser reaches it. A loopback address in the
// settings means "the machine serving the site", which a phone on the LAN
// knows by the host it opened, not as 127.0.0.1.
export function emulatorUrl(host, pageHostname) {
  if (!host) return "";
  const colon = host.lastIndexOf(":");
  const name = host.slice(0, colon);
  const port = host.slice(colon + 1);
  return `http://${LOOPBACK.has(name) && pageHostname ? pageHostname : name}:${port}`;
}

// Set just before leaving for a redirect sign-in: only then does the page
// that comes back ask for the redirect's result (which needs the helper).
export const REDIRECT_PENDING = "manga_auth_redirect";
// A guest's upgrade by redirect needs the helper on the auth instance itself
// (the SDK keeps the guest for the return there): the page reloads with this
// set, starts with the helper, and leaves for the redirect.
export const UPGRADE_BY_REDIRECT = "manga_auth_upgrade_redirect";

export function sessionFlag(name) {
  try {
    return sessionStorage.getItem(name) !== null;
  } catch {
    return false;
  }
}

export function setSessionFlag(name, on) {
  try {
    if (on) sessionStorage.setItem(name, "1");
    else sessionStorage.removeItem(name);
  } catch {
    // No session storage: a redirect result is not picked up; the sign-in state still is.
  }
}

// Where the SDK keeps the signed-in user under local persistence
// (browserLocalPersistence is localStorage; the SDK's _persistenceKeyName).
export function storedUserKey(apiKey, appName) {
  return `firebase:authUser:${apiKey}:${appName}`;
}

// Does this browser hold a signed-in user for the app? Only then is the SDK
// needed before the visitor asks to sign in. Storage that cannot be read
// answers yes: the SDK then decides, as it did for everyone before.
export function holdsStoredUser(storage, apiKey, appName) {
  try {
    return storage.getItem(storedUserKey(apiKey, appName)) !== null;
  } catch {
    return true;
  }
}
