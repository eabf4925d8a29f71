// The Firebase Auth client of the site (Firebase JS SDK, pinned in Python as
// firebase@12.19.0). Rendered once as an app wrap: it initialises the app
// from the config the backend passes, connects to the Auth emulator in local
// runs, sets local persistence, and reports every auth state to Python with a
// fresh ID token (the backend verifies it; it never trusts the user object).
// Sign-in actions are exposed as window.mangaAuth.* for rx.call_script.
import React, { useEffect } from "react";
import { getApps, initializeApp } from "firebase/app";
import {
  GoogleAuthProvider,
  browserLocalPersistence,
  connectAuthEmulator,
  getAuth,
  getRedirectResult,
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
} from "firebase/auth";

const APP_NAME = "manga-hiroba";
// Where a popup cannot work, the same sign-in runs as a full-page redirect.
const USE_REDIRECT = new Set([
  "auth/popup-blocked",
  "auth/operation-not-supported-in-environment",
  "auth/web-storage-unsupported",
]);
// The visitor changed their mind: nothing to report.
const CANCELLED = new Set(["auth/popup-closed-by-user", "auth/cancelled-popup-request", "auth/user-cancelled"]);

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

// One client per page load, whatever mounts it; the mounted components only
// lend their Python event handlers (the newest mount wins).
const mounted = [];
let client = null;

function handlers() {
  return mounted[mounted.length - 1] || {};
}

function call(name, ...args) {
  const handler = handlers()[name];
  if (typeof handler === "function") handler(...args);
}

function startClient(config, emulatorUrl) {
  const app = getApps().find((candidate) => candidate.name === APP_NAME) || initializeApp(config, APP_NAME);
  const auth = getAuth(app);
  if (emulatorUrl && !auth.emulatorConfig) {
    connectAuthEmulator(auth, emulatorUrl, { disableWarnings: true });
  }
  let lastToken = "";
  let upgrading = false;

  async function report(user) {
    const token = user ? await user.getIdToken() : "";
    lastToken = token;
    call("onAuthChange", toUser(user), token);
  }

  function fail(error) {
    if (error && CANCELLED.has(error.code)) return;
    console.error("Sign-in failed:", error);
    call("onError", (error && error.code) || "unknown");
  }

  setPersistence(auth, browserLocalPersistence)
    .catch((error) => {
      // The spec: log it and end loading (the visitor is signed out).
      console.error("Error setting persistence:", error);
      call("onAuthChange", null, "");
    })
    .finally(() => {
      onAuthStateChanged(auth, (user) => report(user).catch(fail));
      onIdTokenChanged(auth, async (user) => {
        if (!user) return;
        const token = await user.getIdToken();
        // An upgrade reports its own, newest token when it is done.
        if (upgrading) return;
        if (token !== lastToken) {
          lastToken = token;
          call("onToken", token);
        }
      });
      // Completes a sign-in that fell back to a redirect.
      getRedirectResult(auth).catch(fail);
    });

  async function signInWithGoogle() {
    const provider = new GoogleAuthProvider();
    const current = auth.currentUser;
    try {
      if (current && current.isAnonymous) {
        upgrading = true;
        await upgrade(current, provider).finally(() => {
          upgrading = false;
        });
      } else {
        await signInWithPopup(auth, provider).catch((error) => {
          if (USE_REDIRECT.has(error.code)) return signInWithRedirect(auth, provider);
          throw error;
        });
      }
    } catch (error) {
      fail(error);
    }
  }

  // An anonymous visitor keeps everything: the Google credential is linked so
  // the uid stays. When that Google account already exists, sign in to it and
  // let the server merge the anonymous library into it (both tokens verified).
  async function upgrade(anonymous, provider) {
    try {
      const result = await linkWithPopup(anonymous, provider);
      // Linking keeps the user but not the Google profile on the account
      // (the SDK only shows it locally): save it so tokens carry name and photo.
      const google = result.user.providerData.find((info) => info.providerId === "google.com");
      const profile = {};
      const displayName = result.user.displayName || (google && google.displayName);
      const photoURL = result.user.photoURL || (google && google.photoURL);
      if (displayName) profile.displayName = displayName;
      if (photoURL) profile.photoURL = photoURL;
      if (Object.keys(profile).length) {
        // The link already succeeded; a profile that fails to save only costs the name.
        await updateProfile(result.user, profile).catch((error) => console.warn("Profile not saved:", error));
      }
      // Linking keeps the same user, so no auth-state notification follows.
      const token = await result.user.getIdToken(true);
      lastToken = token;
      call("onAuthChange", toUser(result.user), token);
    } catch (error) {
      if (error.code === "auth/credential-already-in-use") {
        const anonymousToken = await anonymous.getIdToken();
        const credential = GoogleAuthProvider.credentialFromError(error);
        const result = await signInWithCredential(auth, credential);
        call("onMerge", anonymousToken, await result.user.getIdToken());
        return;
      }
      if (USE_REDIRECT.has(error.code)) return linkWithRedirect(anonymous, provider);
      throw error;
    }
  }

  return {
    signInWithGoogle,
    signInAnonymously: () => signInAnonymously(auth).catch(fail),
    signOut: () => signOut(auth).catch(fail),
  };
}

export function FirebaseAuth({ children, config, emulatorUrl, onAuthChange, onToken, onMerge, onError }) {
  useEffect(() => {
    const entry = { onAuthChange, onToken, onMerge, onError };
    mounted.push(entry);
    if (!client) {
      client = startClient(config, emulatorUrl);
      window.mangaAuth = client;
    }
    return () => {
      mounted.splice(mounted.indexOf(entry), 1);
    };
    // The client lives as long as the page; props are fixed per build.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <>{children}</>;
}
