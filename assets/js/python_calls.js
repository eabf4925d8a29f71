// The only globals the site's scripts set: what Python calls by name, in the
// script strings of rx.call_script / rx.run_script (manga_app/visitor/notify.py,
// manga_app/visitor/auth_state.py, manga_app/ui/account/*.py,
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
