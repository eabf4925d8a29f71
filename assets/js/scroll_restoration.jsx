// React Router's scroll restoration (in place of Reflex's: manga_app/
// platform/). Its inline script, which puts the window back where it
// was on a reload, holds the HTML parser: it asks the browser for session
// storage (two round trips to the browser process, about 5 ms in a trace,
// more on a busy phone), before the first frame. The reader's window does
// not scroll in paged reading, and the reader puts its own position back:
// there the script is a module, run once the page is parsed, after the
// frame that draws the first page. Other pages keep it where it was, so a
// reloaded page does not show its top before it jumps.
import React from "react";
import { ScrollRestoration } from "react-router";
import { useReaderPage } from "./reader_page.js";

// `readerPath`: the reader's path rule (manga_app/core/routes.py), a RegExp source.
export function SiteScrollRestoration({ readerPath }) {
  return useReaderPage(readerPath) ? <ScrollRestoration type="module" /> : <ScrollRestoration />;
}
