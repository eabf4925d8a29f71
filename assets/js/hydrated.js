// False while rendering on the server and while hydrating its HTML; true for
// every render after that.
//
// The flip is a transition: React renders it in slices, after the hydration
// has committed and painted. The obvious alternative,
// useSyncExternalStore(noop, () => true, () => false), makes React re-render
// every such component synchronously inside the task that commits the
// hydration, and a synchronous update first runs every effect of the freshly
// hydrated page (the socket's connection, client storage, auth) in that same
// task: the longest task of a page load, and most of Lighthouse's blocking
// time on a title page with its thirty chapter rows.
import { startTransition, useEffect, useState } from "react";

let hydrated = false;

export function useHydrated() {
  const [value, setValue] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    if (!value) startTransition(() => setValue(true));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return value;
}
