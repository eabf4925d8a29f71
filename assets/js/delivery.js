// What the tab sent and the server has not answered yet (issue 38).
//
// Each event this tab sends gets a number, in Reflex's instrumentation hook
// (window.__reflex_otel.onEventSend, called with the very object state.js
// then sends); the server answers the number once the event's handler has
// finished (manga_app/platform/event_answers.py), as Reflex's `_set_value` of
// the ref registered here. So the tab knows:
// - when answers are late: `useAnswersLate()` is true while an event has
//   waited LATE_MS or more (the reconnecting notice, offline/root.jsx);
// - what to send again: when the socket connects again (a worker killed, a
//   network cut, a server restarted), every event not answered is put back at
//   the head of Reflex's queue, which state.js sends right after the
//   reconnect's hydrate. The events that write (follows, likes, statuses,
//   reading positions) set a value, so one handled before the connection
//   dropped and sent again changes nothing.
import { useSyncExternalStore } from "react";
import { queueEvents, refs } from "$/utils/state";
import { EVENT_ANSWER_REF, EVENT_NUMBER_FIELD as FIELD } from "./shared.js";

// Reflex's name of the ref rx.set_value addresses.
const ANSWER_REF = `ref_${EVENT_ANSWER_REF}`;
// An answer this late means the server is waiting on something (a stopped
// Redis, a restarting database, a dead connection). Events are answered in
// milliseconds; the slowest ordinary ones are a page's on_load chain with 3
// workers under load (p95 0.14-0.46 s, README's Scale section) and a sign-in's
// token check (about a second). Four seconds is well past those, so a slow
// answer does not flash the notice, and early in an outage, where events
// wait 30-60 s (DATABASE_WAIT_SECONDS, REDIS_WAIT_SECONDS).
export const LATE_MS = 4000;
// The hydrate rides in the socket's CONNECT packet, not as an event, and every
// reconnect sends its own; a page's load is done again by that hydrate.
const NOT_SENT_AGAIN = /\.(hydrate|hydrate_and_load|on_load_internal)$/;
const STATE_EVENT = /^reflex___state/;
// At most this many unanswered events are kept (the oldest are let go).
const KEPT = 200;

const unanswered = new Map(); // number -> { event, at }
const listeners = new Set();
let sent = 0;
let late = false;
let timer = null;

function update() {
  clearTimeout(timer);
  timer = null;
  const now = Date.now();
  let oldest = Infinity;
  for (const { at } of unanswered.values()) oldest = Math.min(oldest, at);
  const isLate = oldest !== Infinity && now - oldest >= LATE_MS;
  if (oldest !== Infinity && !isLate) timer = setTimeout(update, oldest + LATE_MS - now);
  if (isLate !== late) {
    late = isLate;
    for (const listener of listeners) listener();
  }
}

function onEventSend(event) {
  if (!event || typeof event.name !== "string" || !STATE_EVENT.test(event.name) || /\.hydrate(_and_load)?$/.test(event.name)) return;
  sent += 1;
  event[FIELD] = sent;
  const { [FIELD]: _number, router_data: _route, ...kept } = event;
  unanswered.set(sent, { event: kept, at: Date.now() });
  if (unanswered.size > KEPT) unanswered.delete(unanswered.keys().next().value);
  update();
}

function answered(number) {
  if (unanswered.delete(number)) update();
}

// Connected again: what was not answered goes first, before what waited in
// the queue unsent (state.js sends the queue right after this hook), in the
// order it was first sent. Each gets a new number when it is sent.
function onSocketConnect() {
  const again = [...unanswered.values()].map(({ event }) => event).filter((event) => !NOT_SENT_AGAIN.test(event.name));
  unanswered.clear();
  update();
  // No socket here: the events wait at the head of the queue for the connect handler's send.
  if (again.length) queueEvents(again, null, true);
}

export function useAnswersLate() {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => late,
    () => false,
  );
}

if (typeof window !== "undefined") {
  refs[ANSWER_REF] = {
    current: {
      set value(number) {
        answered(number);
      },
    },
  };
  // Reflex's instrumentation hook (reflex-otel installs one too): chained, never replaced.
  const previous = window.__reflex_otel || {};
  window.__reflex_otel = {
    ...previous,
    onEventSend(event) {
      previous.onEventSend?.(event);
      onEventSend(event);
    },
    onSocketConnect() {
      previous.onSocketConnect?.();
      onSocketConnect();
    },
  };
}
