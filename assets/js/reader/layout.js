// Pure page-layout rules of the reader: which pages share the screen in
// double-page view, and how big each page is drawn. No React here.

// A page wider than tall is a two-page spread: it is always shown alone.
export function isWide(page) {
  return page.width > page.height;
}

// Screens ("units") of the paged reader, as lists of page indices.
// Double view pairs consecutive pages; a spread stands alone and the page
// after it starts a new pair. `offset` shows the first page alone, shifting
// every pair by one (for books whose pairs start on the second page).
export function buildUnits(pages, double, offset) {
  if (!double) return pages.map((_, index) => [index]);
  const units = [];
  let pending = null;
  pages.forEach((page, index) => {
    if (isWide(page)) {
      if (pending !== null) units.push([pending]);
      pending = null;
      units.push([index]);
    } else if (index === 0 && offset) {
      units.push([index]);
    } else if (pending === null) {
      pending = index;
    } else {
      units.push([pending, index]);
      pending = null;
    }
  });
  if (pending !== null) units.push([pending]);
  return units;
}

// The unit showing `page`; `units.length` stands for the end-of-chapter card.
export function unitOfPage(units, page) {
  const found = units.findIndex((unit) => unit.includes(page));
  return found === -1 ? units.length : found;
}

// The reading position of the screen showing `page`: its last page, the
// furthest the visitor has seen (the last pair reaches the chapter's last
// page, which makes it read).
export function lastShown(units, page) {
  const unit = units[unitOfPage(units, page)];
  return unit ? Math.max(...unit) : page;
}

// How the pages of one unit are drawn in the paged reader: side by side at
// one common height. The sizes are CSS (reader_pages.css) from each page's
// share of the unit's width (`--share`) and the unit's width-to-height ratio
// (`--ratio`), so the server's HTML and every screen size draw them right
// before any image or script arrives, and nothing moves. 原寸 ("original")
// is each image's own size.
export function unitStyles(pages, fit) {
  if (fit === "original") return pages.map(originalSize);
  const ratio = pages.reduce((sum, page) => sum + page.width / page.height, 0);
  return pages.map((page) => ({ "--share": +(page.width / page.height).toFixed(5), "--ratio": +ratio.toFixed(5) }));
}

// 原寸, times the reader's zoom (--zoom on the stage or the strip; 1 unset).
export function originalSize(page) {
  return { width: `calc(${page.width}px * var(--zoom, 1))`, height: `calc(${page.height}px * var(--zoom, 1))` };
}

// What the counter shows for a screen: "5", or "2-3" for a pair.
export function unitLabel(unit) {
  if (!unit || unit.length === 0) return "";
  const first = Math.min(...unit) + 1;
  const last = Math.max(...unit) + 1;
  return first === last ? `${first}` : `${first}-${last}`;
}

// Whether the first page stands alone in double view: the reader's own
// choice (true or false), else the chapter's (worked out at import from
// where its spreads fall; null or undefined when unknown: no offset).
export function pairingOffset(chosen, chapterDefault) {
  if (typeof chosen === "boolean") return chosen;
  return !!chapterDefault;
}

// The order a chapter's pages are fetched in: the one on screen, then the
// next ones in reading order, `ahead` of them.
export function loadOrder(current, total, ahead) {
  const order = [];
  const first = Math.min(Math.max(current, 0), Math.max(total - 1, 0));
  const end = Math.min(total, first + 1 + Math.max(ahead, 0));
  for (let index = first; index < end; index += 1) order.push(index);
  return order;
}

// The page under the top edge of the viewport in the vertical strip, and how
// far down it is scrolled (0..1). `rects` are the pages' client rects.
export function positionInStrip(rects, line = 0) {
  for (let index = 0; index < rects.length; index += 1) {
    const rect = rects[index];
    if (rect.bottom > line) {
      const offset = rect.height > 0 ? (line - rect.top) / rect.height : 0;
      return { page: index, offset: Math.min(1, Math.max(0, offset)) };
    }
  }
  return { page: Math.max(0, rects.length - 1), offset: 1 };
}
