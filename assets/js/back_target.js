// Where the in-app back control goes (the spec's navigation stack, kept by
// manga_app/ui/navigation_state.py): the page before the one the browser is
// on. Read against the browser's own path, because right after a
// navigation the stack has not heard of the new page yet. No React here.

// A path of this site (ui/navigation.py is_site_path): one leading '/', no
// backslash or control character. "//evil.example/x" is another site, and
// the back control never leads there (an open redirect).
const SITE_PATH = /^\/(?![/\\])[^\\\u0000-\u001f\u007f]*$/;

export function isSitePath(path) {
  return typeof path === "string" && SITE_PATH.test(path);
}

export function backTarget(stack, pathname) {
  const kept = Array.isArray(stack) ? stack.filter(isSitePath) : [];
  const paths = kept.length ? kept : ["/"];
  const at = paths.lastIndexOf(pathname);
  if (at > 0) return paths[at - 1]; // on the stack: the page before it
  if (at === 0) return "/";
  return paths[paths.length - 1]; // not on it yet: the page it was reached from
}
