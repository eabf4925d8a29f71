// A page's content, painted from the first HTML response before any of the
// app's JavaScript has arrived: manga_app/web/first_paint.py renders the page
// as the app will (same elements, same classes) and inlines this file in the
// head, calling pageFirstPaint(data) while the head is parsed. Pages whose
// content comes from the catalogue (title pages) would otherwise stay blank
// until a few hundred kilobytes of JavaScript had run and asked the server.
// A plain script: no modules, only the DOM.
//
// Returns the images to be painted before the app starts (paint_gate.js).
// data: {html, ready}. `ready`: a selector that matches once the app shows
// the page itself; this copy goes then, or as soon as the visitor is
// elsewhere. It lies over the app's own rendering meanwhile, so the app's
// placeholders never show and nothing moves when it goes.
function pageFirstPaint(data) {
  "use strict";
  var ID = "page-first-paint";
  var GIVE_UP_MS = 8000;
  if (!data || !data.html) return [];

  var root = document.createElement("div");
  root.id = ID;
  root.className = "page-first-paint";
  root.innerHTML = data.html;
  // After the head, not in the body: React hydrates the body's children in
  // order, and an element among them would not be one it rendered.
  document.documentElement.appendChild(root);

  var path = location.pathname;
  var observer = new MutationObserver(check);
  var appSeen = false;
  function remove() {
    var painted = document.getElementById(ID);
    if (painted) {
      var typed = typedInto(painted);
      painted.remove();
      typed.forEach(carry);
    }
    observer.disconnect();
  }
  // What the visitor typed into the copy's search boxes before the app
  // arrived goes into the app's own, as typing (the app hears it), and the
  // box keeps the focus. After the copy is gone: the body is hidden until then.
  function typedInto(painted) {
    return Array.prototype.filter
      .call(painted.querySelectorAll("input[name=q]"), function (field) {
        return field.value !== field.defaultValue;
      })
      .map(function (field) {
        var form = field.closest(".header-search") ? ".header-search" : ".search-form";
        return { selector: form + " input[name=q]", value: field.value, focused: document.activeElement === field };
      });
  }
  // The app's box may still be hidden for a moment (antd shows its input a
  // frame or two after mounting it): try again a few times, unless the
  // visitor has focused something else meanwhile.
  function focusWhenShown(target, caret, tries) {
    target.focus();
    if (document.activeElement === target) {
      target.setSelectionRange(caret, caret);
    } else if (tries > 0) {
      setTimeout(function () {
        if (document.activeElement === document.body || !document.activeElement) focusWhenShown(target, caret, tries - 1);
      }, 50);
    }
  }
  function carry(typed) {
    var target = document.body && document.body.querySelector(typed.selector);
    if (!target) return;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(target, typed.value);
    target.dispatchEvent(new Event("input", { bubbles: true }));
    if (typed.focused) focusWhenShown(target, typed.value.length, 10);
  }
  function check() {
    var body = document.body;
    // The app's own page is there (or it shows not-found: the title went
    // away between the response and the app's request), or the visitor is
    // elsewhere.
    if (location.pathname !== path || (body && body.querySelector(data.ready + ",.ant-result"))) return remove();
    // Whatever happens to the page's data, the app's own page (with its
    // placeholders or error) shows a few seconds after its layout is in the
    // body at the latest (prerendered pages have it from the start).
    if (!appSeen && body && body.querySelector(".layout-site")) {
      appSeen = true;
      setTimeout(remove, GIVE_UP_MS);
    }
  }
  observer.observe(document.documentElement, { childList: true, subtree: true });
  // What the app's start waits for (paint_gate.js): the images that are
  // the point of the page (the title page's cover).
  return Array.prototype.slice.call(root.querySelectorAll("img[fetchpriority=high]"));
}
