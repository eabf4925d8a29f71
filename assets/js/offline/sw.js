// The service worker (served at /sw.js by manga_app/web/service_worker.py,
// which puts `VERSION`, `SHELL`, `MEDIA_ORIGIN` and `SITE_PAGES`, the site
// pages kept up to date whenever they are opened online, above this text).
// Installed after the page's load event (register.js), so the first visit
// never waits for it.
//
// Caches:
// - manga-shell-<VERSION>: the build's files (hashed scripts, styles, icons),
//   one per build. A new build installs a complete new one first; the old
//   ones are deleted only when the new worker takes over, after the files
//   the saved pages still name were copied across.
// - manga-offline-v1: what readers saved or opened (chapter pages and
//   images, title pages) and the site pages that work offline. Its name never
//   changes with a build: an update never drops a saved chapter. The
//   browser-side index of it is assets/js/offline/store.js.
// - manga-media-recent: the last media images fetched (the site's, or a
//   CDN's, fetched with CORS so their bytes can be kept): where an opened
//   chapter's pages are kept from (save.js) without downloading them again.
/* global VERSION, SHELL, MEDIA_ORIGIN, SITE_PAGES */
const SHELL_PREFIX = "manga-shell-";
const SHELL_CACHE = SHELL_PREFIX + VERSION;
const DATA_CACHE = "manga-offline-v1";
const RECENT_MEDIA = "manga-media-recent";
const RECENT_MEDIA_MAX = 300;
const STATIC_PATH = /^\/(assets|css|icons|js|media)\//;
const ASSET_REFERENCE = /\/assets\/[A-Za-z0-9._-]+\.(?:js|css)/g;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL_CACHE);
      try {
        await shell.addAll(SHELL);
      } catch (error) {
        // Not installed: the worker in control keeps its own complete cache.
        await caches.delete(SHELL_CACHE);
        throw error;
      }
      // The site pages that work offline, as this build renders them.
      const data = await caches.open(DATA_CACHE);
      await Promise.all(
        SITE_PAGES.map(async (path) => {
          const page = await fetch(path, { credentials: "same-origin" });
          if (page.ok) await data.put(new URL(path, self.location.origin).href, page);
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL_CACHE);
      const named = await assetsOfKeptPages();
      for (const name of await caches.keys()) {
        if (!name.startsWith(SHELL_PREFIX) || name === SHELL_CACHE) continue;
        const old = await caches.open(name);
        for (const request of await old.keys()) {
          if (!named.has(new URL(request.url).pathname) || (await shell.match(request))) continue;
          const response = await old.match(request);
          if (response) await shell.put(request, response);
        }
        await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// The built files the kept pages load: a saved chapter keeps working with
// the build it was saved with until it is opened online again.
async function assetsOfKeptPages() {
  const named = new Set();
  const data = await caches.open(DATA_CACHE);
  for (const request of await data.keys()) {
    const response = await data.match(request);
    if (!response || !(response.headers.get("content-type") || "").startsWith("text/html")) continue;
    for (const found of (await response.text()).match(ASSET_REFERENCE) || []) named.add(found);
  }
  return named;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (url.origin === self.location.origin ? STATIC_PATH.test(url.pathname) || url.pathname === "/favicon.ico" : url.origin === MEDIA_ORIGIN) {
    // Built files and media are immutable (hashed names), a CDN's too.
    // Other origins (sign-in, analytics) are left to the browser.
    event.respondWith(kept(event));
  }
});

async function kept(event) {
  const request = event.request;
  const shell = await caches.open(SHELL_CACHE);
  const found = (await shell.match(request)) || (await caches.match(request, { ignoreVary: true }));
  if (found) return found;
  try {
    return await fetched(event);
  } catch (error) {
    const sibling = await keptSibling(request.url);
    if (sibling) return sibling;
    throw error;
  }
}

// Offline, a page's AVIF at one full-quality width that is not kept: the same
// page at the other (1,200 <-> 1,600 px), when that one is. The reader takes
// the high-DPI copy by the screen, and a chapter may have been kept on
// another screen or before its copy existed (image_formats.js, otherWidth).
const AVIF_WIDTH = /-w(1200|1600)\.avif$/;
async function keptSibling(url) {
  const found = AVIF_WIDTH.exec(url);
  if (!found) return null;
  const other = url.replace(AVIF_WIDTH, found[1] === "1200" ? "-w1600.avif" : "-w1200.avif");
  return (await caches.match(other, { ignoreVary: true })) || null;
}

async function fetched(event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin === MEDIA_ORIGIN) return fromMediaOrigin(event);
  const response = await fetch(request);
  if (response.ok && request.destination === "image" && url.pathname.startsWith("/media/")) {
    event.waitUntil(noteRecent(request.url, response.clone()));
  }
  return response;
}

// False once the media origin answered a CORS request with no CORS headers:
// its images are then left to the browser (and opened chapters not kept).
let mediaCors = true;

// An image's own request to another origin gets an opaque answer, which can
// be neither measured nor kept well: fetched with CORS instead, and noted
// among the recent media.
async function fromMediaOrigin(event) {
  const request = event.request;
  if (!mediaCors) return fetch(request);
  let response;
  try {
    response = await fetch(request.url, { mode: "cors", credentials: "omit", cache: request.cache });
  } catch (error) {
    if (!navigator.onLine) throw error;
    mediaCors = false;
    return fetch(request);
  }
  if (response.ok && request.destination === "image") event.waitUntil(noteRecent(request.url, response.clone()));
  return response;
}

async function noteRecent(url, response) {
  const recent = await caches.open(RECENT_MEDIA);
  await recent.put(url, response);
  const keys = await recent.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - RECENT_MEDIA_MAX)).map((key) => recent.delete(key)));
}

function pageKey(url) {
  return new URL(url.pathname, url.origin).href;
}

// Pages: the network first (a page is never older than the site), the kept
// copy when there is no connection, else a page that says so.
async function page(request, url) {
  const data = await caches.open(DATA_CACHE);
  const key = pageKey(url);
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    return (await data.match(key)) || offlineNotice(data);
  }
  if (response.ok && (SITE_PAGES.includes(url.pathname) || (await data.match(key)))) {
    await data.put(key, response.clone());
  }
  return response;
}

const NOTICE = `<h1 class="page-title">オフラインです。保存した話だけ読めます</h1>
<p>このページは保存されていないため、接続がないと開けません。</p>
<p><a class="button-primary" href="/offline">保存した話の一覧へ</a></p>`;
const NOTICE_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'";

// The notice in the site's own frame (stylesheets, header, footer): the kept
// /offline page with its main part replaced and its scripts left out (the
// app could not start without the server), drawn as offline (offline.css).
// Only when that page is not kept (the worker could not fetch it), the
// notice alone with the site's stylesheets.
async function offlineNotice(data) {
  const frame = await data.match(new URL("/offline", self.location.origin).href);
  const framed = frame ? inFrame(await frame.clone().text()) : "";
  // The kept page's own policy (its inline styles are hashed in it).
  const policy = (framed && frame.headers.get("content-security-policy")) || NOTICE_POLICY;
  const html = framed || `<!doctype html>
<html lang="ja" data-offline="true"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>オフラインです</title><link rel="stylesheet" href="/css/site.css"><link rel="stylesheet" href="/css/browse.css"><link rel="stylesheet" href="/css/offline.css"></head>
<body><main class="offline-fallback" role="main">${NOTICE}</main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": policy },
  });
}

function inFrame(html) {
  const main = /<main\b[^>]*>[\s\S]*<\/main>/;
  if (!main.test(html)) return "";
  return html
    .replace(/<script\b[\s\S]*?<\/script>/g, "")
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/g, "")
    .replace(/<title\b[^>]*>[\s\S]*?<\/title>/, "<title>オフラインです</title>")
    .replace(/<html\b/, '<html data-offline="true"')
    .replace(main, `<main class="site-main offline-fallback" id="main">${NOTICE}</main>`);
}
