// Shared helpers of the browser tests and the browser benchmark: the build's tools, one
// headless Chromium (Debian's, driven by playwright-core), pages opened from file:// with
// their console errors and page errors collected, screenshots and frame timing.
//
// The tools come from the environment the CTest registration sets (tests/CMakeLists.txt):
//   DEPGRAPH_VIEWER     deps_viewer binary        DEPGRAPH_CLI   depgraph binary
//   DEPGRAPH_GEN_GRAPH  gen_graph binary          DEPGRAPH_BUILD_DIR  where screenshots go
//   DEPGRAPH_SOURCE_DIR the source tree           CHROMIUM       the browser (/usr/bin/chromium)
// Unset, they default to build/ under the source tree.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/// The source tree (two levels above this file unless DEPGRAPH_SOURCE_DIR says otherwise).
export const sourceDir = process.env.DEPGRAPH_SOURCE_DIR || path.resolve(here, '..', '..');
/// The build directory whose binaries are under test.
export const buildDir = process.env.DEPGRAPH_BUILD_DIR || path.join(sourceDir, 'build');
/// The binaries.
export const tools = {
  viewer: process.env.DEPGRAPH_VIEWER || path.join(buildDir, 'apps', 'deps_viewer'),
  cli: process.env.DEPGRAPH_CLI || path.join(buildDir, 'apps', 'depgraph', 'depgraph'),
  genGraph: process.env.DEPGRAPH_GEN_GRAPH || path.join(buildDir, 'apps', 'gen_graph'),
  orchRunner: process.env.DEPGRAPH_ORCH_RUNNER || path.join(buildDir, 'apps', 'orch_runner', 'orch_runner'),
};
/// Where screenshots are written.
export const screenshotDir = path.join(buildDir, 'browser-screenshots');

/// The Chromium executable, or null when none is installed (the only reason to skip).
export function findChromium() {
  const candidates = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((c) => c && existsSync(c)) || null;
}

/// The skip reason for node:test when Chromium is absent (printed once), else false.
export function skipWithoutChromium() {
  if (findChromium()) return false;
  const reason = 'browser tests skipped: chromium not found (apt-get install chromium, ' +
    'or set CHROMIUM=/path/to/chromium)';
  console.log(reason);
  return reason;
}

/// One browser and one temporary directory shared by the tests of a `describe` block:
/// launched in its `before` hook, closed and removed in its `after` hook. Pass node:test's
/// `before` and `after`; read `session.browser` and `session.dir` inside the tests.
export function browserSession(before, after) {
  const session = { browser: null, dir: null, tmp: null };
  before(async () => {
    session.browser = await launchBrowser();
    session.tmp = tempDir();
    session.dir = session.tmp.dir;
  });
  after(async () => {
    if (session.browser) await session.browser.close();
    if (session.tmp) session.tmp.cleanup();
  });
  return session;
}

/// Launches headless Chromium. About 1-4 s.
export async function launchBrowser() {
  let playwright;
  try {
    playwright = await import('playwright-core');
  } catch (e) {
    throw new Error('playwright-core is not installed in tests/browser: run scripts/setup.sh ' +
      '(or `npm ci` in tests/browser)\n' + e.message);
  }
  return playwright.chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/// Runs one of the build's tools; returns its stdout. Throws with stderr on failure.
export function run(binary, args, options = {}) {
  try {
    return execFileSync(binary, args, {
      encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'], ...options,
    });
  } catch (e) {
    throw new Error(`${path.basename(binary)} ${args.join(' ')} failed: ${e.message}\n${e.stderr || ''}`);
  }
}

/// Like run(), without blocking: several tools can run at once. Resolves to stdout.
export function runAsync(binary, args) {
  return new Promise((resolve, reject) => {
    execFile(binary, args, { encoding: 'utf8', maxBuffer: 1 << 28 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${path.basename(binary)} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      } else {
        resolve(stdout);
      }
    });
  });
}

/// A fresh temporary directory, removed by the returned cleanup function.
export function tempDir(prefix = 'depgraph-browser-') {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/// Opens `file` (a path) in a new page of `browser` at the given viewport. Returns
/// { page, errors }: `errors` collects console errors and uncaught page errors from the
/// start, so a test can assert that none happened (assertNoPageErrors).
export async function openPage(browser, file, { width = 1400, height = 900, waitFor, hash = '' } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  await page.goto(pathToFileURL(file).href + hash, { waitUntil: 'load' });
  if (waitFor) await page.waitForFunction(waitFor, null, { timeout: 30000 });
  return { page, errors };
}

/// Fails with every collected error when there is any.
export function assertNoPageErrors(errors) {
  if (errors.length) throw new Error(`the page reported ${errors.length} error(s):\n` + errors.join('\n'));
}

/// Screenshots the page's viewport into build/browser-screenshots/<name>.png and prints the path.
export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`screenshot: ${file}`);
  return file;
}

/// Mean, p95 and max of a list of durations (ms), rounded to 0.01 ms.
export function summarize(values) {
  if (!values.length) return { n: 0, mean: 0, p95: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const r = (x) => Math.round(x * 100) / 100;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return {
    n: sorted.length,
    mean: r(mean),
    p95: r(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]),
    max: r(sorted[sorted.length - 1]),
  };
}

/// Runs `frames` animation frames in the page; in each, calls the page function named by
/// `step` (a string of JavaScript evaluated with `i`, the frame number, in scope) and then,
/// if the page has `window.explorer.renderNow`, times one synchronous render. Returns
/// { intervals, renders } in ms: the gaps between consecutive frames, the render durations.
export async function measureFrames(page, frames, step) {
  return page.evaluate(async ({ frames, step }) => {
    const body = new Function('i', step);
    const intervals = [], renders = [];
    let last = null;
    await new Promise((resolve) => {
      let i = 0;
      function tick(now) {
        if (last !== null) intervals.push(now - last);
        last = now;
        if (i >= frames) { resolve(); return; }
        body(i);
        const ex = window.explorer;
        if (ex && typeof ex.renderNow === 'function') renders.push(ex.renderNow());
        i += 1;
        requestAnimationFrame(tick);
      }
      requestAnimationFrame(tick);
    });
    return { intervals, renders };
  }, { frames, step });
}

const adjacencyCache = new Map();
// (pred, succ) of every edge row: JSON.parse for small files, a regular-expression scan for
// model-sized ones (parsing 100 MB of JSON takes the test budget; gen_graph and the runtime
// write "pred" right before "succ").
function edgeRows(depsFile) {
  const text = readFileSync(depsFile, 'utf8');
  if (text.length < (8 << 20)) {
    return (JSON.parse(text).edges || []).map((e) => [String(BigInt(e.pred)), String(BigInt(e.succ))]);
  }
  const rows = [];
  for (const m of text.matchAll(/"pred":\s*"?(\d+)"?,\s*"succ":\s*"?(\d+)"?/g)) {
    rows.push([String(BigInt(m[1])), String(BigInt(m[2]))]);
  }
  return rows;
}

// Unique (pred, succ) pairs of a deps.json by task: { preds: Map, succs: Map } of Sets.
function adjacency(depsFile) {
  if (!adjacencyCache.has(depsFile)) {
    const preds = new Map(), succs = new Map();
    const add = (map, key, value) => {
      if (!map.has(key)) map.set(key, new Set());
      map.get(key).add(value);
    };
    for (const [p, s] of edgeRows(depsFile)) {
      add(preds, s, p);
      add(succs, p, s);
    }
    adjacencyCache.set(depsFile, { preds, succs });
  }
  return adjacencyCache.get(depsFile);
}

/// The unique predecessors and successors of `id` (a raw decimal string) in a deps.json,
/// sorted by numeric id: for picking tasks to test. Parses the file
/// once per run (cached).
export function neighboursFromDepsJson(depsFile, id) {
  const { preds, succs } = adjacency(depsFile);
  const byId = (a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
  return { preds: [...(preds.get(id) || [])].sort(byId), succs: [...(succs.get(id) || [])].sort(byId) };
}

/// The expected neighbours of a task: `depgraph query DEPS --task ID --json`.
/// Returns { preds, succs, source }.
export function expectedNeighbours(depsFile, id) {
  const q = JSON.parse(run(tools.cli, ['query', depsFile, '--task', id, '--json']));
  assertQueryShape(q, id);
  return { preds: q.preds.map(String), succs: q.succs.map(String), source: 'depgraph query' };
}

function assertQueryShape(q, id) {
  if (String(q.task) !== id || !Array.isArray(q.preds) || !Array.isArray(q.succs)) {
    throw new Error(`depgraph query --task ${id} --json printed an unexpected shape: ${JSON.stringify(q)}`);
  }
}

/// The number of pairs deps_viewer shows (edges) or lists (listed) in `mode`, from its
/// --format json export, with the stdout it printed. Resolves to { edges, listed, stdout }.
export async function edgeCountsFor(depsFile, mode, dir) {
  const out = path.join(dir, `edges_${mode}.json`);
  const stdout = await runAsync(tools.viewer, [depsFile, '--format', 'json', '--edge-mode', mode, '-o', out]);
  const data = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out, { force: true });
  return { edges: data.edges.length, listed: data.listed.length, stdout };
}
