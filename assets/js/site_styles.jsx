// The site's stylesheet in the document head (in place of Reflex's link:
// manga_app/platform/). Every page waits for it before its first
// frame, except pages of a route that draws itself with a small stylesheet
// of its own (the reader, assets/css/reader_first_paint.css): there the
// server's HTML has only that one, and the site's is linked once the app
// has started, long after the first frame. It adds nothing the reader's
// page shows, so nothing moves when it applies. (Linked from the first
// HTML with a media that does not match, its 130 KB were fetched beside
// the first page's image and slowed it down.)
import React from "react";
import { useHydrated } from "./hydrated.js";
import { seededValue } from "./page_state.jsx";
import { useReaderPage } from "./reader_page.js";

// The reader's own rules are written into the server's HTML, not linked: a
// linked stylesheet held the first frame until its response came in beside
// the first page's image, and the parser with it, so the page's text, its
// bars and its scripts were all done in the frame that shows the image
// (reader LCP 1.75x a static page showing the same image). Inline, the bars
// are drawn while the image downloads. Only the server build carries the
// text (React adopts the server's <style> by its href when it hydrates);
// in the browser the site's stylesheet, with all of these rules, has
// applied before the app draws a reader of its own.
const ownRules = import.meta.env.SSR ? (await import("../css/reader_first_paint.css?inline")).default : "";

// `href`: the site's stylesheet. `readerPath`: the reader's path rule
// (manga_app/core/routes.py), a RegExp source. `foundState`/`foundField`:
// where the seeded states say whether the path names a page.
export function SiteStylesheet({ href, readerPath, foundState, foundField }) {
  // Any page but the reader's gets the site's stylesheet in its first HTML,
  // the 404 page included, also on a reader path that names no chapter.
  const own = useReaderPage(readerPath) && seededValue(foundState, foundField) !== false;
  // False on the server and while hydrating its HTML, true from then on.
  const started = useHydrated();
  return (
    <>
      {own && !started ? (
        <style href="reader-first-paint" precedence="reader">
          {ownRules}
        </style>
      ) : null}
      {own && !started ? null : <link key="site" rel="stylesheet" type="text/css" href={href} />}
    </>
  );
}
