// A chapter's first page painted from the first HTML response, whoever drew
// it: the server's markup (manga_app/web/templates/reader_first_paint.html,
// for a browser that has not read here) or first_paint.js (one whose
// settings and positions decide). Gone as soon as the visitor is elsewhere
// or the reader shows an error; the reader itself removes it once its own
// first page is ready (reader.jsx). A plain script: no modules.
//
// Returns the images the app's start waits for (paint_gate.js).
function watchReaderFirstPaint(root) {
  "use strict";
  var path = location.pathname;
  var watch = setInterval(function () {
    if (location.pathname !== path || document.querySelector(".reader-error")) root.remove();
    if (!root.isConnected) clearInterval(watch);
  }, 200);
  return [root.querySelector("img")];
}
