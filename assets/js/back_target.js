// Where the in-app back control goes (the spec's navigation stack, kept by
// manga_app/ui/navigation_state.py): the page before the one the browser is
// on. Read against the browser's own path, because right after a
// navigation the stack has not heard of the new page yet. No React here.
export function backTarget(stack, pathname) {
  const paths = Array.isArray(stack) && stack.length ? stack : ["/"];
  const at = paths.lastIndexOf(pathname);
  if (at > 0) return paths[at - 1]; // on the stack: the page before it
  if (at === 0) return "/";
  return paths[paths.length - 1]; // not on it yet: the page it was reached from
}
