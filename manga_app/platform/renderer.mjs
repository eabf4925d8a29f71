// Renders pages with React Router's server build of the app (the build
// Reflex already makes to prerender its static routes), seeded with the
// states the Python server computed (manga_app/platform/states.py).
//
//   node renderer.mjs <web dir> <unix socket>
//
// A request is a frame: 4 bytes of length (big-endian), then JSON
// {"url": "/manga/x", "seed": "<states as JSON>"}. The answer is a frame of
// 4 bytes of status, 4 bytes of length, then the page's HTML (or, with
// status 500, the error). Plain frames rather than HTTP: an HTTP client
// cost the Python side 2.4 ms of CPU per page, a seventh of a render.
// Renders run one at a time: the seed is a module-level value of the build
// (assets/js/page_state.jsx). The process exits when its parent closes
// stdin, so it never outlives the server that started it.
//
// Overrides: React Router's server build as Reflex makes it (8.4.0): the
// build's entry module (its default export replaced by wholePage) and the
// handler's `prerender` list (every path counts as prerendered).
// Why: Reflex builds with `ssr: false` and prerenders static routes at build
// time only; the site renders every page's first HTML at request time.
// Waits for: request-time server rendering in Reflex (none upstream:
// reflex-dev/reflex#5252, closed, points to build-time prerendering, #4984).
import { createRequire } from "node:module";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [webDir, socketPath] = process.argv.slice(2).map((arg) => path.resolve(arg));
const require = createRequire(path.join(webDir, "package.json"));
const { createRequestHandler, ServerRouter } = await import(pathToFileURL(require.resolve("react-router")).href);
const build = await import(pathToFileURL(path.join(webDir, "build/server/index.js")).href);

// The build says `ssr: false` and lists the routes it prerendered. A page
// rendered here is a prerender done at request time, so every path counts
// as prerendered: the HTML (and what it tells the browser's router) is the
// same as for a page prerendered at build time.
class EveryPath extends Array {
  some() {
    return true;
  }
}
// React Router's default entry streams a page's shell first and completes
// its suspended parts with inline scripts (React's $RC, and a
// requestAnimationFrame to time their reveal), a stream for a browser
// waiting on a slow server. A page rendered here is sent whole, so it waits
// for everything, as that entry does for crawlers and static generation:
// the parts are in place in the HTML, with no scripts to move them there
// before the page's first frame. Node's own streams (renderToPipeableStream),
// not web streams: the same bytes, a ranking page in 3.7 ms instead of 6.7.
const { createElement } = await import(pathToFileURL(require.resolve("react")).href);
const { renderToPipeableStream } = await import(pathToFileURL(require.resolve("react-dom/server")).href);
const { Writable } = await import("node:stream");

// A part that never finishes is given up after this long (as React
// Router's entry does), so one page cannot hold the renderer's queue.
const RENDER_TIMEOUT_MS = 6000;

function wholePage(request, status, headers, routerContext) {
  return new Promise((resolve) => {
    const chunks = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timer);
        headers.set("Content-Type", "text/html");
        resolve(new Response(Buffer.concat(chunks), { headers, status }));
        done();
      },
    });
    let timer;
    const stream = renderToPipeableStream(createElement(ServerRouter, { context: routerContext, url: request.url }), {
      onAllReady() {
        stream.pipe(sink);
      },
      onShellError(error) {
        clearTimeout(timer);
        status = 500;
        console.error(error);
        resolve(new Response(String(error), { headers, status }));
      },
      onError(error) {
        status = 500;
        console.error(error);
      },
    });
    timer = setTimeout(() => stream.abort(new Error("the page took too long to render")), RENDER_TIMEOUT_MS);
  });
}

const entry = { ...build.entry, module: { ...build.entry.module, default: wholePage } };
const handle = createRequestHandler({ ...build, entry, prerender: new EveryPath("/") }, "production");
const seedPageState = globalThis.__mangaSeedPageState;
if (typeof seedPageState !== "function") {
  throw new Error("the server build has no page-state seed: is PageState an app wrap?");
}

let queue = Promise.resolve();

async function render({ url, seed }) {
  seedPageState(seed);
  try {
    // Appended, not resolved: a path such as "//" is a path here, never a scheme-relative URL.
    const response = await handle(new Request(new URL("http://localhost" + url)));
    // The page's UTF-8 bytes as React wrote them: decoding them to a string only to encode it again
    // for the socket was 5 % of this process's time (TextDecoder, then Buffer.from).
    return { status: response.status, html: Buffer.from(await response.arrayBuffer()) };
  } finally {
    seedPageState("");
  }
}

async function answer(job) {
  try {
    const result = await (queue = queue.then(() => render(job), () => render(job)));
    return frame(result.status, result.html);
  } catch (error) {
    console.error("render failed:", error);
    return frame(500, String(error && error.stack ? error.stack : error));
  }
}

function frame(status, text) {
  const body = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
  const head = Buffer.allocUnsafe(8);
  head.writeUInt32BE(status, 0);
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

// Each connection sends requests one after another and reads the answers in
// the same order.
const server = net.createServer((socket) => {
  let pending = Buffer.alloc(0);
  let answered = Promise.resolve();
  socket.on("data", (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
      const length = pending.readUInt32BE(0);
      const text = pending.toString("utf8", 4, 4 + length);
      pending = pending.subarray(4 + length);
      let job;
      try {
        job = JSON.parse(text);
      } catch (error) {
        job = null;
      }
      const reply = job ? answer(job) : Promise.resolve(frame(500, "the request is not JSON"));
      answered = answered.then(() => reply).then((bytes) => socket.write(bytes));
    }
  });
  socket.on("error", () => socket.destroy());
});

fs.rmSync(socketPath, { force: true });
server.listen(socketPath, () => process.stdout.write("ready\n"));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
