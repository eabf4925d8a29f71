// The commands the backend may ask this browser to run
// (manga_app/visitor/client_commands.py): code of the bundle, named by the
// backend, so no script text is ever evaluated and the site's
// Content-Security-Policy needs no 'unsafe-eval'. A command arrives as
// Reflex's `_set_value` event for the ref registered here, whose setter runs
// it; an unknown command is reported on the console and ignored.
import { refs, ReflexEvent } from "$/utils/state";
import { eventLoop } from "$/utils/context-registry";
import { notify } from "./notify.js";
import { authActions } from "./firebase/client.jsx";

const REF = "ref_manga_command";

export const COMMANDS = {
  notify: (kind, message, description) => notify(kind, message, description),
  sign_out: () => authActions.signOut(),
  // Same history entry: the address follows what the page shows.
  replace_url: (url) => window.history.replaceState(window.history.state, "", url),
  later: (milliseconds, handler) =>
    setTimeout(() => eventLoop.addEvents && eventLoop.addEvents([ReflexEvent(handler, {})]), milliseconds),
};

export function runCommand(value) {
  const [name, ...args] = Array.isArray(value) ? value : [];
  const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : null;
  if (command) command(...args);
  else console.error("unknown client command", value);
}

refs[REF] = {
  current: {
    set value(command) {
      runCommand(command);
    },
  },
};

// An app wrap (manga_app/visitor/client_commands.py), so this module loads on every page.
export function ClientCommands({ children }) {
  return children;
}
