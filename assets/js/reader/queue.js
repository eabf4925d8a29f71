// The reader's loading queue as a pure rule: which image requests to start
// and which to cancel, given the pages in the order they are wanted (the
// one on screen first, then reading order) and what is loading or loaded.
// No React here.

// Requests in flight at once: on a slow link, fewer requests each get their
// share of it sooner, and the page wanted next is never one of ten.
export const MAX_IN_FLIGHT = 3;
// The page on screen and the next ones (this many in all) may take a slot
// from a later page's request.
export const URGENT = 3;

// `order`: urls, most wanted first; `loading`, `loaded`: Sets of urls.
// Returns {start, cancel} (urls), keeping at most `max` in flight, or one
// while the first page not loaded is an urgent one.
export function planLoads(order, loading, loaded, max = MAX_IN_FLIGHT) {
  const wanted = order.filter((url, index) => url && !loaded.has(url) && order.indexOf(url) === index);
  // Urgent pages load one at a time, in order: requests in flight share a
  // slow link about equally, so two others beside the page a reader turns
  // to next would make it arrive three times later (a turn 3 s after opening
  // on 1.6 Mbit/s waited 1.2-1.4 s for it; benchmarks/reader_turn.py).
  const limit = wanted.length > 0 && order.indexOf(wanted[0]) < URGENT ? 1 : max;
  const rank = new Map(wanted.map((url, index) => [url, index]));
  const urgent = wanted.slice(0, URGENT);
  const waiting = urgent.filter((url) => !loading.has(url)).length;
  // Room for the urgent pages: the in-flight requests wanted least give
  // theirs up (one for a page no longer wanted at all before any other).
  const spare = [...loading]
    .filter((url) => !urgent.includes(url))
    .sort((a, b) => (rank.has(b) ? rank.get(b) : Infinity) - (rank.has(a) ? rank.get(a) : Infinity));
  const cancel = [];
  while (loading.size - cancel.length + waiting > limit && cancel.length < spare.length) cancel.push(spare[cancel.length]);
  let busy = loading.size - cancel.length;
  const start = [];
  for (const url of wanted) {
    if (busy >= limit) break;
    if (loading.has(url)) continue;
    start.push(url);
    busy += 1;
  }
  return { start, cancel };
}
