// A chapter's first page, downloading and painted from the first HTML
// response, for a browser that has read here before (the reader's cookie):
// its settings and positions, in localStorage, decide what the reader opens
// with. (For any other browser the server writes the same markup itself:
// manga_app/web/templates/reader_first_paint.html.) manga_app/seo.py inlines
// this file and first_paint_watch.js into the head and calls
// readerFirstPaint(data, css) while the head is parsed, before any of the
// app's JavaScript has arrived. The page is already downloading (the head's
// high-priority preload) and is drawn where the reader will draw it in the
// first frame, until the reader replaces it (reader.jsx removes
// #reader-first-paint). `css` (assets/css/reader_pages.css) is all the
// styling that frame has: the site's stylesheet loads after it
// (manga_app/web/shell.py). A plain script: no modules, only the DOM.
//
// It follows what the reader will do. The reader's cookie (positions.js
// rememberFirstPage), as the server read it (data.visitor), tells the
// quality and the chapter read last; a browser without it has not read
// here, so the defaults hold and localStorage, whose first use costs a page
// tens of milliseconds, is left alone. A browser with it has its mode, fit,
// direction and positions read from localStorage; a chapter that resumes
// elsewhere is left to the reader.
//
// Returns the images the app's start waits for (paint_gate.js), or null
// when it painted nothing.
function readerFirstPaint(data, css) {
  "use strict";
  var ID = "reader-first-paint";
  if (!data) return null;

  // Reading the cookie here would cost the head a few milliseconds more.
  var visitor = data.visitor;
  if (visitor && visitor.key === data.key && visitor.page > 0) return null;
  var first = { url: visitor && visitor.saver ? data.saver_url : data.url, width: data.width, height: data.height };

  function stored(key) {
    try {
      return JSON.parse(localStorage.getItem(key) || "null");
    } catch (error) {
      return null;
    }
  }

  var settings = {};
  if (visitor) {
    settings = stored("manga_reader_settings") || {};
    var positions = stored("manga_reader_positions");
    var saved = positions && positions.items && positions.items[data.key];
    if (Array.isArray(saved) && (saved[0] > 0 || saved[1] > 0)) return null;
    var history = stored("manga_reading_history");
    if (Array.isArray(history)) {
      for (var i = 0; i < history.length; i += 1) {
        var entry = history[i] || {};
        if (entry.slug === data.slug && String(entry.chapter) === data.number && (entry.page > 0 || entry.offset > 0)) return null;
      }
    }
  }

  var mode = data.webtoon ? settings.webtoon_mode : settings.manga_mode;
  if (mode !== "vertical" && mode !== "paged") mode = data.webtoon ? "vertical" : "paged";
  var fit = ["auto", "width", "height", "original"].indexOf(settings.fit) >= 0 ? settings.fit : "auto";
  var chosen = settings.directions && settings.directions[data.slug];
  var direction = chosen === "rtl" || chosen === "ltr" ? chosen : data.direction;

  // Styles as [property, value] pairs, set in order: a value the browser
  // does not know (dvh in an old one) is skipped, the one before it stays.
  function element(tag, className, styles) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    (styles || []).forEach(function (pair) {
      node.style[pair[0]] = pair[1];
    });
    return node;
  }

  function image(styles) {
    var node = element("img", "reader-page", styles);
    node.alt = "";
    node.width = first.width;
    node.height = first.height;
    node.setAttribute("fetchpriority", "high");
    node.setAttribute("elementtiming", "first-paint");
    node.src = first.url;
    return node;
  }

  function isWide(page) {
    return page.width > page.height;
  }

  // layout.js unitSizes, in CSS: the unit's pages side by side at one common
  // height, from the viewport's size whenever it is known (this runs before
  // the page's viewport rules are read). The reader rounds down to whole
  // pixels, so its page is never larger than this one.
  function sizeStyles(page, ratio) {
    var share = page.width / page.height;
    if (fit === "original") return [["width", page.width + "px"], ["height", page.height + "px"]];
    if (fit === "height") return [["height", "100vh"], ["height", "100dvh"], ["width", "auto"]];
    var byWidth = "calc(100vw * " + share / ratio + ")";
    if (fit === "width") return [["width", byWidth], ["height", "auto"]];
    return [
      ["width", "min(" + byWidth + ", calc(100vh * " + share + "))"],
      ["width", "min(" + byWidth + ", calc(100dvh * " + share + "))"],
      ["height", "auto"],
    ];
  }

  function paged() {
    var pair = settings.double === true && settings.offset !== true && data.next && !isWide(first) && !isWide(data.next);
    var pages = pair ? [first, data.next] : [first];
    var ratio = pages.reduce(function (sum, page) { return sum + page.width / page.height; }, 0);
    // A page wider than the screen: the reader opens it scrolled to its
    // right edge in right-to-left reading; here the unit overflows leftwards.
    var stage = element("div", "reader-stage reader-fit-" + fit, direction === "rtl" ? [["justifyContent", "flex-end"]] : []);
    var unit = element("div", "reader-unit reader-unit-" + direction);
    unit.appendChild(image(sizeStyles(first, ratio)));
    if (pair) {
      var blank = element("div", "reader-first-paint-blank", sizeStyles(data.next, ratio));
      blank.style.aspectRatio = data.next.width + " / " + data.next.height;
      unit.appendChild(blank);
    }
    stage.appendChild(unit);
    return stage;
  }

  function vertical() {
    var holder = element("div");
    holder.appendChild(element("div", "reader-first-paint-bar"));
    var strip = element("div", "reader-strip reader-fit-" + fit);
    var styles = fit === "height" ? [] : [["width", fit === "original" ? first.width + "px" : "100%"], ["height", "auto"]];
    strip.appendChild(image(styles));
    holder.appendChild(strip);
    return holder;
  }

  var root = element("div", "reader-first-paint");
  root.id = ID;
  if (css) {
    var style = element("style");
    style.textContent = css;
    root.appendChild(style);
  }
  root.setAttribute("aria-hidden", "true");
  root.setAttribute("data-mode", mode);
  root.appendChild(mode === "vertical" ? vertical() : paged());
  // Now, while the head is still being parsed: the page is drawn in the
  // first frame that has the styles. After the head, not in the body: React
  // hydrates the body's children in order, and an element among them would
  // not be one it rendered.
  document.documentElement.appendChild(root);
  // The app starts once this page is painted (assets/js/paint_gate.js).
  return watchReaderFirstPaint(root);
}
