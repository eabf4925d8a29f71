// What a button does in the browser alone, declared in Python as data
// attributes (manga_app/ui/actions.py: `data-action` and its arguments) and
// run here by one click listener: no script text in Python, no globals.
// Runs in the click itself, so a Google popup counts as a user gesture.
// The names are checked against Python's (tests/unit/test_frontend_contract.py).
import { notify } from "./notify.js";

// firebase/client.jsx hands over its actions when it mounts; a click before
// that finds none and does nothing, as the button's own spinner says.
let auth = null;
export function exposeAuthActions(actions) {
  auth = actions;
}

function byId(id) {
  return id ? document.getElementById(id) : null;
}

async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const box = document.createElement("textarea");
  box.value = text;
  document.body.appendChild(box);
  box.select();
  document.execCommand("copy");
  box.remove();
}

export const ACTIONS = {
  "dialog-open": ({ target }) => byId(target)?.showModal(),
  "dialog-close": ({ target }) => byId(target)?.close(),
  // One screenful of whole cards (the row snaps to a card's start).
  "scroll-row": ({ target, step }) => {
    const row = byId(target);
    if (row) row.scrollBy({ left: Number(step) * row.clientWidth, behavior: "smooth" });
  },
  // The page's address: the system's share sheet where there is one, else copied.
  share: () => {
    const url = location.href;
    if (navigator.share) return navigator.share({ title: document.title, url }).catch(() => {});
    return copyText(url).then(() => notify("success", "リンクをコピーしました", url));
  },
  // The text of the field `target` (a feed or OPDS address), selected and copied.
  copy: ({ target }) => {
    const box = byId(target);
    if (!box) return undefined;
    box.select();
    return copyText(box.value).then(() => notify("success", "URLをコピーしました", ""));
  },
  "sign-in-google": () => auth?.signInWithGoogle(),
  "sign-in-guest": () => auth?.signInAnonymously(),
  // ログアウト as clicked: a guest is asked first (firebase/client.jsx).
  "sign-out": () => auth?.requestSignOut(),
  // The guest's answer in that dialog: sign out for good.
  "sign-out-now": () => auth?.signOut(),
};

// Modules load on the server too (the prerender, server rendering): no document there.
if (typeof document !== "undefined") {
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    const run = button && ACTIONS[button.dataset.action];
    if (!run) return;
    byId(button.dataset.close)?.close();
    run(button.dataset);
  });
}
