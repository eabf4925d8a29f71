// MDN's HTTP Observatory scan (its own retriever, tests and grader) of one
// page on any port. Its CLI scans only "/" on ports 80 and 443, and its
// wrapper replaces NODE_EXTRA_CA_CERTS with Mozilla's intermediate bundle;
// the library's retriever takes ports and a path, so this runs the scan the
// way src/scanner/index.js does, with those options.
//   node scan.mjs HOST HTTPS_PORT HTTP_PORT PATH
// OBSERVATORY_RESOLVE="name=address,..." resolves those host names without
// DNS (a test's production host on loopback). Prints the scan as JSON.
import dns from "node:dns";
import { retrieve } from "@mdn/mdn-http-observatory/src/retriever/retriever.js";
import { ALL_TESTS, NUM_TESTS } from "@mdn/mdn-http-observatory/src/constants.js";
import { MINIMUM_SCORE_FOR_EXTRA_CREDIT } from "@mdn/mdn-http-observatory/src/grader/charts.js";
import { getGradeForScore, getScoreModifier } from "@mdn/mdn-http-observatory/src/grader/grader.js";

const resolved = new Map(
  (process.env.OBSERVATORY_RESOLVE || "").split(",").filter(Boolean).map((pair) => pair.split("=")),
);
const systemLookup = dns.lookup;
dns.lookup = (hostname, options, callback) => {
  const address = resolved.get(hostname);
  if (!address) return systemLookup(hostname, options, callback);
  const done = typeof options === "function" ? options : callback;
  const family = address.includes(":") ? 6 : 4;
  if (typeof options === "object" && options?.all) done(null, [{ address, family }]);
  else done(null, address, family);
};

const [hostname, httpsPort, httpPort, path = "/"] = process.argv.slice(2);
const requests = await retrieve(hostname, { httpsPort, httpPort, path });
const response = requests.responses.auto;
if (!response) {
  console.log(JSON.stringify({ error: "The site seems to be down." }));
  process.exit(1);
}
const results = ALL_TESTS.map((test) => test(requests));
let withExtraCredit = 100;
let uncurved = 100;
let passed = 0;
const tests = {};
for (const result of results) {
  if (!result.result) continue;
  const modifier = getScoreModifier(result.result);
  passed += result.pass ? 1 : 0;
  withExtraCredit += modifier;
  if (modifier < 0) uncurved += modifier;
  tests[result.constructor.name] = { pass: result.pass, result: result.result, scoreModifier: modifier };
}
const final = getGradeForScore(uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withExtraCredit : uncurved);
console.log(
  JSON.stringify({
    grade: final.grade,
    score: final.score,
    statusCode: response.status,
    testsFailed: NUM_TESTS - passed,
    tests,
    responseHeaders: response.headers,
  }),
);
