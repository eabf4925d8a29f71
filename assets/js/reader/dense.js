// Which AVIF each page shows: the reader width's, the data saver's, or the
// page's high-DPI copy on a screen that draws it wider (image_formats.js,
// pageAvif). The pages the server's HTML loads at once (the one the reader
// opens on and the next) take the screen the server knew, the one in the
// first-page cookie (positions.js): its preload, its HTML and the hydrated
// <picture>s name one file, never two. The others, and the next chapter's
// first pages warmed near the end, take the screen as it is once the app
// runs (the first render hydrates the server's HTML as it is). Read once per
// opening: a phone's address bar resizing the window must not swap files
// the browser already has.
import { useCallback, useEffect, useMemo, useState } from "react";
import { currentScreen, pageAvif, screenFromText } from "../image_formats.js";

export function useDenseChoice({ inBrowser, cookie, pages, opened, saver, fit, mode, double }) {
  const [first] = useState(() => (inBrowser ? currentScreen() : screenFromText(cookie)));
  const [now, setNow] = useState(first);
  useEffect(() => setNow(currentScreen()), []);
  const layout = useMemo(() => ({ fit, mode, double }), [fit, mode, double]);
  const pinned = useMemo(() => new Set([pages[opened], pages[opened + 1]]), [pages, opened]);
  const avifOf = useCallback(
    (item, zoomed = false) => pageAvif(item, { saver, zoomed, layout, screen: pinned.has(item) ? first : now }),
    [saver, layout, pinned, first, now],
  );
  // The next chapter's first pages ({src, avif, hidpi_avif, width, height}: at the reader's quality already).
  const warmAvifOf = useCallback((image) => pageAvif(image, { layout, screen: now }), [layout, now]);
  return { avifOf, warmAvifOf };
}
