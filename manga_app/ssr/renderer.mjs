// Renders pages with React Router's server build of the app (the build
// Reflex already makes to prerender its static routes), seeded with the
// states the Python server computed (manga_app/ssr/states.py).
//
//   node renderer.mjs <web dir> <unix socket>
//
// POST / with {"url": "/manga/x", "seed": "<states as JSON>"} answers the
// page's HTML. Renders run one at a time: the seed is a module-level value
// of the build (assets/js/page_state.jsx). The process exits when its
// parent closes stdin, so it never outlives the server that started it.
import { createRequire } from "node:module";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [webDir, socketPath] = process.argv.slice(2).map((arg) => path.resolve(arg));
const require = createRequire(path.join(webDir, "package.json"));
const { createRequestHandler } = await import(pathToFileURL(require.resolve("react-router")).href);
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
const handle = createRequestHandler({ ...build, prerender: new EveryPath("/") }, "production");
const seedPageState = globalThis.__mangaSeedPageState;
if (typeof seedPageState !== "function") {
  throw new Error("the server build has no page-state seed: is PageState an app wrap?");
}

let queue = Promise.resolve();

async function render({ url, seed }) {
  seedPageState(seed);
  try {
    const response = await handle(new Request(new URL(url, "http://localhost")));
    return { status: response.status, html: await response.text() };
  } finally {
    seedPageState("");
  }
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

const server = http.createServer(async (request, response) => {
  try {
    const job = JSON.parse(await readBody(request));
    const result = await (queue = queue.then(() => render(job), () => render(job)));
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "x-render-status": String(result.status) });
    response.end(result.html);
  } catch (error) {
    console.error("render failed:", error);
    response.writeHead(500, { "content-type": "text/plain" });
    response.end(String(error && error.stack ? error.stack : error));
  }
});

fs.rmSync(socketPath, { force: true });
server.listen(socketPath, () => process.stdout.write("ready\n"));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
