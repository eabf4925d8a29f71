// The Firebase Auth client of the site (Firebase JS SDK, pinned in Python as
// firebase@12.19.0). Rendered once for the whole app (an app wrap): when it
// mounts, the backend sends its settings (so no build carries a project or an
// emulator address), then it connects to the Auth emulator in local runs,
// sets local persistence, and reports every auth state to Python with a
// fresh ID token (the backend verifies it; it never trusts the user object).
// Sign-in actions are `authActions` (buttons reach them through actions.js).
// The SDK (about 46 KB of script, compressed) is loaded only for a browser
// that holds a signed-in user, or once the visitor asks to sign in: a
// visitor who never signed in is reported as nobody without it, and their
// phone neither downloads nor runs it.
import React, { useEffect } from "react";
import { closeAccountMenus } from "./account_menu.js";
import { exposeAuthActions } from "../actions.js";
import { CANCELLED, HELPER_UNREACHABLE, HELPER_WAIT_MS, REDIRECT_PENDING, UPGRADE_BY_REDIRECT, USE_REDIRECT } from "./auth_rules.js";
import { helperLoaded } from "./auth_rules.js";
import { emulatorUrl, googleProfile, holdsStoredUser, refreshDelay, sessionFlag, setSessionFlag, storedUserKey, toUser } from "./auth_rules.js";

const APP_NAME = "manga-hiroba";
const GUEST_SIGN_OUT = "guest-sign-out";

// One client per page load (null until the SDK is loaded); the mounted root
// lends its newest Python event handlers on every render.
let client = null;
let starting = false;
let handlers = {};
// The backend's settings, once they arrive; whether a sign-in was asked for
// before they did.
let settings = null;
let asked = false;
let clientReady;
const ready = new Promise((resolve) => {
  clientReady = resolve;
});

function call(name, ...args) {
  const handler = handlers[name];
  if (typeof handler === "function") handler(...args);
}

let sdkLoading = null;
let auth = null;
function loadSdk() {
  sdkLoading = sdkLoading || Promise.all([import("firebase/app"), import("firebase/auth")]);
  return sdkLoading;
}

async function startClient(settings) {
  const [{ getApps, initializeApp }, sdk] = await loadSdk();
  const {
    GoogleAuthProvider,
    browserLocalPersistence,
    browserPopupRedirectResolver,
    connectAuthEmulator,
    getRedirectResult,
    initializeAuth,
    linkWithPopup,
    linkWithRedirect,
    onAuthStateChanged,
    onIdTokenChanged,
    setPersistence,
    signInAnonymously,
    signInWithCredential,
    signInWithPopup,
    signInWithRedirect,
    signOut,
    updateProfile,
  } = sdk;
  const { emulatorHost, ...config } = settings;
  const app = getApps().find((candidate) => candidate.name === APP_NAME) || initializeApp(config, APP_NAME);
  // Not getAuth(): it would load the popup/redirect helper (Google's gapi
  // script and an iframe) on every page for every visitor. The resolver is
  // handed to the sign-in calls instead, so it loads only when one happens,
  // and to the instance only around a redirect.
  const resolver = browserPopupRedirectResolver;
  const aroundRedirect = sessionFlag(REDIRECT_PENDING) || sessionFlag(UPGRADE_BY_REDIRECT);
  auth =
    auth ||
    initializeAuth(app, {
      persistence: browserLocalPersistence,
      ...(aroundRedirect ? { popupRedirectResolver: resolver } : {}),
    });
  const url = emulatorUrl(emulatorHost, window.location.hostname);
  if (url && !auth.emulatorConfig) {
    connectAuthEmulator(auth, url, { disableWarnings: true });
  }
  // "uid token" of the last report ("" for nobody), once the first came.
  let reported = null;
  let upgrading = false;
  let refreshTimer = null;

  // A forced refresh before expiry; onIdTokenChanged sends the new token.
  // Timers sleep with the tab, so a tab shown again checks at once.
  async function scheduleRefresh(user) {
    clearTimeout(refreshTimer);
    if (!user) return;
    const { expirationTime } = await user.getIdTokenResult();
    refreshTimer = setTimeout(
      () => user.getIdToken(true).catch(fail),
      refreshDelay(Date.parse(expirationTime), Date.now()),
    );
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") scheduleRefresh(auth.currentUser).catch(fail);
  });

  function send(user, token) {
    reported = user ? `${user.uid} ${token}` : "";
    call("onAuthChange", toUser(user), token);
  }

  // Every path that ends with someone (or nobody) signed in comes here; a
  // report the backend already has is not sent twice.
  async function report(user, force = false) {
    const token = user ? await user.getIdToken() : "";
    const key = user ? `${user.uid} ${token}` : "";
    if (force || key !== reported) send(user, token);
  }

  function fail(error) {
    if (error && CANCELLED.has(error.code)) return;
    console.error("Sign-in failed:", error);
    call("onError", (error && error.code) || "unknown");
  }

  // The guest's uid now carries Google: no auth-state notification follows,
  // so report the user with a token that has the new claims, after saving
  // the Google name and photo (linking does not put them on the account).
  async function linked(user) {
    const profile = googleProfile(user);
    // The link already succeeded; a profile that fails to save only costs the name.
    if (profile) await updateProfile(user, profile).catch((error) => console.warn("Profile not saved:", error));
    send(user, await user.getIdToken(true));
  }

  // That Google account exists already: sign in to it and let the server
  // merge the guest's library into it (it verifies both tokens).
  async function mergeInto(anonymous, error) {
    const credential = GoogleAuthProvider.credentialFromError(error);
    if (!credential) throw error;
    const anonymousToken = await anonymous.getIdToken();
    const result = await signInWithCredential(auth, credential);
    call("onMerge", anonymousToken, await result.user.getIdToken());
  }

  async function upgrade(anonymous, provider) {
    let result;
    try {
      result = await linkWithPopup(anonymous, provider, resolver);
    } catch (error) {
      if (error.code === "auth/credential-already-in-use") return mergeInto(anonymous, error);
      if (USE_REDIRECT.has(error.code)) {
        if (!aroundRedirect) {
          setSessionFlag(UPGRADE_BY_REDIRECT, true);
          window.location.reload();
          return undefined;
        }
        return redirectTo(() => linkWithRedirect(anonymous, provider, resolver));
      }
      throw error;
    }
    return linked(result.user);
  }

  function redirectTo(leave) {
    setSessionFlag(REDIRECT_PENDING, true);
    return leave();
  }

  // The page reloaded for a guest's upgrade by redirect: leave for it now.
  async function continueUpgrade() {
    if (!sessionFlag(UPGRADE_BY_REDIRECT)) return;
    setSessionFlag(UPGRADE_BY_REDIRECT, false);
    await auth.authStateReady();
    const current = auth.currentUser;
    if (current && current.isAnonymous) {
      await redirectTo(() => linkWithRedirect(current, new GoogleAuthProvider(), resolver));
    }
  }

  // Back from a redirect sign-in: the same endings as the popup's.
  async function finishRedirect() {
    if (!sessionFlag(REDIRECT_PENDING)) return;
    setSessionFlag(REDIRECT_PENDING, false);
    try {
      const result = await getRedirectResult(auth, resolver);
      if (result && result.operationType === "link") await linked(result.user);
      else if (result) await report(result.user);
    } catch (error) {
      const current = auth.currentUser;
      if (error.code === "auth/credential-already-in-use" && current && current.isAnonymous) {
        await mergeInto(current, error);
        return;
      }
      throw error;
    }
  }

  setPersistence(auth, browserLocalPersistence)
    .catch((error) => {
      // The spec: log it and end loading. Sign-in still works for this page.
      console.error("Error setting persistence:", error);
      call("onPersistenceError", String((error && (error.code || error.message)) || error));
    })
    .finally(() => {
      onAuthStateChanged(auth, (user) => report(user).catch(fail));
      onIdTokenChanged(auth, async (user) => {
        scheduleRefresh(user).catch(fail);
        // A new user is the auth-state listener's; an upgrade reports itself.
        if (!user || upgrading || reported === null || !reported.startsWith(`${user.uid} `)) return;
        const token = await user.getIdToken();
        if (`${user.uid} ${token}` === reported) return;
        reported = `${user.uid} ${token}`;
        call("onToken", token);
      });
      finishRedirect().catch(fail);
      continueUpgrade().catch(fail);
    });

  // Google's sign-in helper (its gapi script, then an iframe) loads before
  // the popup opens. Where it cannot load, the SDK may wait without end
  // (a script that loads but never calls back) or fail only late: after
  // HELPER_WAIT_MS without it the visitor is told, and a late failure of the
  // same attempt is not told twice. A late success still signs in.
  async function signInWithGoogle() {
    let told = false;
    const watchdog = setTimeout(() => {
      if (helperLoaded(window)) return;
      told = true;
      fail({ code: HELPER_UNREACHABLE });
    }, HELPER_WAIT_MS);
    try {
      await googleSignIn();
    } catch (error) {
      if (!told) fail(error);
    } finally {
      clearTimeout(watchdog);
    }
  }

  async function googleSignIn() {
    const provider = new GoogleAuthProvider();
    const current = auth.currentUser;
    if (current && current.isAnonymous) {
      upgrading = true;
      try {
        await upgrade(current, provider);
      } finally {
        upgrading = false;
      }
      return;
    }
    let result;
    try {
      result = await signInWithPopup(auth, provider, resolver);
    } catch (error) {
      if (USE_REDIRECT.has(error.code)) return redirectTo(() => signInWithRedirect(auth, provider, resolver));
      throw error;
    }
    // The same user signing in again brings no auth-state notification.
    await report(result.user);
  }

  return {
    signInWithGoogle,
    signInAnonymously: () =>
      signInAnonymously(auth)
        .then((result) => report(result.user))
        .catch(fail),
    signOut: () => signOut(auth).catch(fail),
    // ログアウト as clicked: a guest's library is lost with the sign-out, so
    // a guest is asked first (the dialog of ui/account/guest_sign_out.py).
    requestSignOut: () => {
      const dialog = document.getElementById(GUEST_SIGN_OUT);
      if (auth.currentUser && auth.currentUser.isAnonymous && dialog) return dialog.showModal();
      return signOut(auth).catch(fail);
    },
    // The backend lost this tab's session (a restart, an expired state):
    // tell it again who is signed in.
    resync: () => {
      if (reported !== null) report(auth.currentUser, true).catch(fail);
    },
  };
}

// The signed-in user's current ID token ("" for nobody), for requests the
// page makes itself (the console's uploads send it; the server verifies it).
export async function currentIdToken() {
  if (!starting) return ""; // no user is held, and none signed in on this page
  const started = await ready;
  const user = started && auth ? auth.currentUser : null;
  return user ? user.getIdToken() : "";
}

// Buttons call these in the click itself, so a popup counts as a user gesture.
export const authActions = {
  signInWithGoogle: () => run("signInWithGoogle"),
  signInAnonymously: () => run("signInAnonymously"),
  signOut: () => run("signOut"),
  requestSignOut: () => run("requestSignOut"),
};

// A click before the SDK has loaded starts it and waits for it: the
// browser's user activation outlasts that wait, so a popup still opens
// (where it does not, the sign-in goes by redirect: USE_REDIRECT).
function run(action) {
  closeAccountMenus();
  if (client) return client[action]();
  asked = true;
  begin();
  return ready.then((started) => (started ? started[action]() : call("onError", "auth/not-ready")));
}

// Is the SDK needed now: a user held by this browser, a redirect sign-in
// coming back, or a sign-in asked for?
function needed() {
  return (
    asked ||
    holdsStoredUser(window.localStorage, settings.apiKey, APP_NAME) ||
    sessionFlag(REDIRECT_PENDING) ||
    sessionFlag(UPGRADE_BY_REDIRECT)
  );
}

// Starts the client once the settings are here (a no-op before, or when started).
function begin() {
  if (starting || !settings) return;
  starting = true;
  startClient(settings)
    .then((started) => {
      client = started;
      clientReady(started);
    })
    .catch((error) => {
      // The SDK did not load (offline): end loading as nobody signed in.
      console.error("Sign-in unavailable:", error);
      clientReady(null);
      call("onAuthChange", null, "");
    });
}

// Another tab signed in: this one starts the client to follow.
function onStorage(event) {
  if (settings && event.key === storedUserKey(settings.apiKey, APP_NAME) && event.newValue) begin();
}

export function FirebaseAuth({ config, loading, onAuthChange, onToken, onMerge, onPersistenceError, onError }) {
  handlers = { onAuthChange, onToken, onMerge, onPersistenceError, onError };
  useEffect(() => {
    exposeAuthActions(authActions);
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);
  useEffect(() => {
    if (settings || !config || !config.projectId) return;
    settings = config;
    if (needed()) begin();
    else call("onAuthChange", null, ""); // what the SDK would report: nobody
  }, [config]);
  useEffect(() => {
    if (!loading || !settings) return;
    // The backend lost this tab's session: tell it again who is signed in.
    if (client) client.resync();
    else if (!starting) call("onAuthChange", null, "");
  }, [loading]);
  return null;
}
