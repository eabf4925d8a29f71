// The only globals the site's scripts set: what Python calls by name, in the
// script strings of rx.run_script (compiled into the bundle: the click handlers of
// manga_app/ui/account/*.py and
// manga_app/pages/title/view.py). The site's own scripts import instead
// (notify.js, firebase/client.jsx's authActions); a name goes from here when
// Python stops calling it (tests/unit/test_frontend_contract.py checks both).
import { notify } from "./notify.js";

// Modules load on the server too (the prerender, server rendering): no window there.
if (typeof window !== "undefined") window.mangaNotify = notify;

// firebase/client.jsx hands over its actions when it mounts.
export function exposeAuthActions(actions) {
  window.mangaAuth = actions;
}
