// A chapter's first page, downloading and painted from the first HTML
// response: manga_app/seo.py inlines this file into the head and calls
// readerFirstPaint(data) while the head is parsed, before any of the app's
// JavaScript has arrived. The page starts downloading at once (a
// high-priority preload) and is drawn where the reader will draw it as soon
// as the body exists, until the reader replaces it (reader.jsx removes
// #reader-first-paint). A plain script: no modules, nothing but the DOM.
//
// It reads the same browser storage as the reader: the quality setting (the
// full or the data-saver image), the reading mode, fit and direction, and
// the saved positions; a chapter that resumes elsewhere is left to the reader.
function readerFirstPaint(data) {
  "use strict";
  var ID = "reader-first-paint";
  if (!data) return;

  function stored(key) {
    try {
      return JSON.parse(localStorage.getItem(key) || "null");
    } catch (error) {
      return null;
    }
  }

  var settings = stored("manga_reader_settings") || {};
  var positions = stored("manga_reader_positions");
  var saved = positions && positions.items && positions.items[data.key];
  if (Array.isArray(saved) && (saved[0] > 0 || saved[1] > 0)) return;
  var history = stored("manga_reading_history");
  if (Array.isArray(history)) {
    for (var i = 0; i < history.length; i += 1) {
      var entry = history[i] || {};
      if (entry.slug === data.slug && String(entry.chapter) === data.number && (entry.page > 0 || entry.offset > 0)) return;
    }
  }

  var first = { url: settings.saver === true ? data.saver_url : data.url, width: data.width, height: data.height };
  // The server may have preloaded it already (it read the reader's cookie).
  if (data.preload !== first.url) {
    var link = document.createElement("link");
    link.rel = "preload";
    link.as = "image";
    link.href = first.url;
    link.setAttribute("fetchpriority", "high");
    document.head.appendChild(link);
  }

  var mode = data.webtoon ? settings.webtoon_mode : settings.manga_mode;
  if (mode !== "vertical" && mode !== "paged") mode = data.webtoon ? "vertical" : "paged";
  var fit = ["auto", "width", "height", "original"].indexOf(settings.fit) >= 0 ? settings.fit : "auto";
  var chosen = settings.directions && settings.directions[data.slug];
  var direction = chosen === "rtl" || chosen === "ltr" ? chosen : data.direction;

  function element(tag, className, style) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (style) for (var key in style) node.style[key] = style[key];
    return node;
  }

  function image(style) {
    var node = element("img", "reader-page", style);
    node.alt = "";
    node.width = first.width;
    node.height = first.height;
    node.setAttribute("fetchpriority", "high");
    node.src = first.url;
    return node;
  }

  function isWide(page) {
    return page.width > page.height;
  }

  // layout.js unitSizes: the unit's pages side by side at one common height.
  function unitSizes(pages) {
    if (fit === "original") return pages.map(function (page) { return { width: page.width, height: page.height }; });
    var ratio = pages.reduce(function (sum, page) { return sum + page.width / page.height; }, 0);
    var byWidth = window.innerWidth / ratio;
    var height = fit === "width" ? byWidth : fit === "height" ? window.innerHeight : Math.min(window.innerHeight, byWidth);
    return pages.map(function (page) {
      return { width: Math.floor((page.width / page.height) * height), height: Math.floor(height) };
    });
  }

  function paged() {
    var pair = settings.double === true && settings.offset !== true && data.next && !isWide(first) && !isWide(data.next);
    var sizes = unitSizes(pair ? [first, data.next] : [first]);
    var stage = element("div", "reader-stage reader-fit-" + fit);
    var unit = element("div", "reader-unit reader-unit-" + direction);
    unit.appendChild(image({ width: sizes[0].width + "px", height: sizes[0].height + "px" }));
    if (pair) unit.appendChild(element("div", "reader-first-paint-blank", { width: sizes[1].width + "px", height: sizes[1].height + "px" }));
    stage.appendChild(unit);
    return stage;
  }

  function vertical() {
    var holder = element("div");
    holder.appendChild(element("div", "reader-first-paint-bar"));
    var strip = element("div", "reader-strip reader-fit-" + fit);
    var style = fit === "height" ? null : fit === "original" ? { width: first.width + "px", height: "auto" } : { width: "100%", height: "auto" };
    strip.appendChild(image(style));
    holder.appendChild(strip);
    return holder;
  }

  var path = location.pathname;
  function paint() {
    var root = element("div", "reader-first-paint");
    root.id = ID;
    root.setAttribute("aria-hidden", "true");
    root.setAttribute("data-mode", mode);
    root.appendChild(mode === "vertical" ? vertical() : paged());
    // Before the body, not in it: React hydrates the body's children in
    // order, and an element among them would not be one it rendered.
    document.documentElement.insertBefore(root, document.body);
    // Gone as soon as the visitor is elsewhere or the reader shows an error;
    // the reader itself removes it once its own first page is ready.
    var watch = setInterval(function () {
      var painted = document.getElementById(ID);
      if (painted && (location.pathname !== path || document.querySelector(".reader-error"))) painted.remove();
      if (!painted || !painted.isConnected) clearInterval(watch);
    }, 200);
  }

  if (document.body) {
    paint();
    return;
  }
  // The body is created right after the head: paint into it then, before
  // the rest of the page is even parsed.
  var waiting = new MutationObserver(function () {
    if (!document.body) return;
    waiting.disconnect();
    paint();
  });
  waiting.observe(document.documentElement, { childList: true });
}
