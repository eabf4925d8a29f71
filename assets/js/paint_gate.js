// When the app may start: once the page's first frame is on screen, with
// the images of its first paint (see page_first_paint.js). The server
// inlines this in the head of every site page and gates React Router's start
// module on window.__firstPaint (manga_app/web/shell.py): a few hundred
// kilobytes of JavaScript fetched and run before that would share the
// connection with the stylesheet and images and hold the main thread while
// the first frame waits. A plain script: no modules.
//
// Knows the frame from the browser's own paint timing (first-contentful-
// paint, and Element Timing for the images) where it has them, else from
// the images decoding and a frame passing. At once in a hidden tab (it
// paints nothing), and after a few seconds whatever happened.
function paintGate(images) {
  "use strict";
  var CAP_MS = 3000;
  return new Promise(function (resolve) {
    var settled = false;
    function start() {
      if (settled) return;
      settled = true;
      setTimeout(resolve, 0);
    }
    if (document.visibilityState === "hidden") return start();
    setTimeout(start, CAP_MS);

    var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
    if (types.indexOf("paint") < 0) {
      Promise.all(
        images.map(function (image) {
          return image.decode ? image.decode().catch(function () {}) : null;
        }),
      ).then(function () {
        requestAnimationFrame(function () {
          setTimeout(start, 0);
        });
      });
      return;
    }

    var painted = false;
    // Images still to be painted; without Element Timing, to be decoded.
    var pending = images.slice();
    var timed = types.indexOf("element") >= 0;
    function settle(image) {
      pending = pending.filter(function (other) {
        return other !== image;
      });
      if (painted && pending.length === 0) start();
    }
    images.forEach(function (image) {
      image.addEventListener("error", function () {
        settle(image);
      });
      if (timed) image.setAttribute("elementtiming", "first-paint");
      else if (image.decode) image.decode().then(function () { settle(image); }, function () { settle(image); });
      else settle(image);
    });
    var observer = new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (entry) {
        if (entry.entryType === "paint" && entry.name === "first-contentful-paint") painted = true;
        if (entry.entryType === "element") settle(entry.element);
      });
      if (painted && pending.length === 0) {
        observer.disconnect();
        start();
      }
    });
    observer.observe({ type: "paint", buffered: true });
    if (timed) observer.observe({ type: "element", buffered: true });
  });
}
