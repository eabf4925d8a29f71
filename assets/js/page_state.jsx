// The page's states as the server rendered them (manga_app/ssr). A change to
// Reflex's generated initialState, kept here because Reflex serves browser
// modules only from assets/ (see manga_app/platform/__init__.py).
//
// Every component reads Reflex state through one store whose values start
// from `initialState` (utils/context.jsx). The server seeds that object
// before it renders a page, and writes the same seed into the page as JSON;
// the browser seeds it from there before React hydrates, so both render the
// same markup and hydration changes nothing.
import React from "react";
import { initialState } from "$/utils/context";

const SEED_ID = "page-state";
const compiledDefaults = { ...initialState };

function seed(states) {
  for (const name of Object.keys(compiledDefaults)) {
    const seeded = states && states[name];
    initialState[name] = seeded ? { ...compiledDefaults[name], ...seeded } : compiledDefaults[name];
  }
}

let seedText = "";
if (typeof document === "undefined") {
  // The renderer (manga_app/platform/renderer.mjs) renders one page at a time.
  globalThis.__mangaSeedPageState = (text) => {
    seedText = text || "";
    seed(seedText ? JSON.parse(seedText) : null);
  };
} else {
  seedText = document.getElementById(SEED_ID)?.textContent || "";
  if (seedText) seed(JSON.parse(seedText));
}

// A seeded state's value as the server rendered the page (undefined when
// not seeded), for parts drawn outside the app's state provider, such as
// the document head.
export function seededValue(state, field) {
  return initialState[state]?.[field];
}

export function PageState({ children }) {
  return (
    <>
      {children}
      {seedText ? (
        <script id={SEED_ID} type="application/json" dangerouslySetInnerHTML={{ __html: seedText }} />
      ) : null}
    </>
  );
}
