// The explorer page (deps_viewer --format html --layout layered, and the default above the
// Graphviz threshold) in headless Chromium, driven only through the contract of
// docs/explorer.md: it loads without console errors, search finds a task by id and by kernel
// name, the panel lists exactly the neighbours `depgraph query` prints, and each edge mode
// shows the count deps_viewer reports for it. Two sizes: a small real capture and a
// generated model-sized graph (65536 decode tasks).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  assertNoPageErrors, edgeCountsFor, expectedNeighbours, neighboursFromDepsJson,
  openPage, run, runAsync,
  browserSession, screenshot, skipWithoutChromium, sourceDir, tools,
} from './harness.mjs';

const skip = skipWithoutChromium();
const READY = 'window.explorer && window.explorer.ready === true';
const MODES = ['full', 'reduced', 'reduced_dataflow', 'retained'];

// Tasks of a deps.json in file order with their first kernel id (a regular-expression scan:
// a model-sized capture is too slow to JSON.parse in a test).
function scanTasks(text) {
  const re = /"task_id":"?(\d+)"?,[^{]*?"kernel_ids":\[(-?\d+),(-?\d+),(-?\d+)\]/g;
  const tasks = [];
  for (const m of text.matchAll(re)) {
    const kernel = [m[2], m[3], m[4]].map(Number).find((k) => k >= 0);
    tasks.push({ id: String(BigInt(m[1])), kernel: kernel === undefined ? -1 : kernel });
  }
  return tasks;
}

// The numbers of deps_viewer's stdout headline for a mode ({listed, total, kept}), if any.
function headline(stdout) {
  const m = /(?:removed|showing) (\d+) redundant edge\(s\) of (\d+)(?: \((\d+) kept\))?/.exec(stdout);
  return m ? { listed: Number(m[1]), total: Number(m[2]), kept: m[3] && Number(m[3]) } : null;
}

// Writes the page and the edge counts deps_viewer reports per mode, all tools at once.
async function prepare(dir, name, deps, { layered, names }) {
  const html = path.join(dir, `${name}.html`);
  const extra = names ? ['--func-names', names] : [];
  const layout = layered ? ['--layout', 'layered'] : [];
  const [, ...exports] = await Promise.all([
    runAsync(tools.viewer, [deps, '--format', 'html', ...layout, ...extra, '-o', html]),
    ...MODES.map((mode) => edgeCountsFor(deps, mode, dir)),
  ]);
  const counts = {};
  MODES.forEach((mode, k) => {
    const c = exports[k];
    const h = headline(c.stdout);
    // The number the viewer's headline reports: kept pairs for reduced modes, listed pairs
    // for retained; full has no headline and shows every pair.
    if (mode === 'full') {
      assert.equal(h, null);
      counts[mode] = c.edges;
    } else if (mode === 'retained') {
      assert.equal(h && h.listed, c.listed, `retained headline: ${c.stdout}`);
      counts[mode] = c.listed;
    } else {
      assert.equal(h && h.kept, c.edges, `${mode} headline: ${c.stdout}`);
      counts[mode] = c.edges;
    }
  });
  return { html, deps, counts };
}

// Picks a task with predecessors and successors and a kernel name, the first task of its
// kernel (so that a capped result list still shows it), or `preferred`; returns its id,
// kernel name and expected neighbours.
function pickTask(deps, nameOf, preferred) {
  const tasks = scanTasks(readFileSync(deps, 'utf8'));
  let candidates = tasks.filter((t) => t.id === preferred);
  if (!preferred) {
    const seen = new Set();
    candidates = tasks.filter((t) => t.kernel >= 0 && !seen.has(t.kernel) && seen.add(t.kernel));
    candidates.push(...tasks);  // then any task (its kernel's result list may be capped)
  }
  for (const t of candidates) {
    if (!nameOf(t.kernel)) continue;
    const near = neighboursFromDepsJson(deps, t.id);
    if (!near.preds.length || !near.succs.length) continue;
    return { id: t.id, kernel: nameOf(t.kernel), want: expectedNeighbours(deps, t.id) };
  }
  throw new Error(`no task with predecessors, successors and a kernel name in ${deps}`);
}

async function checkPage(browser, graph, shotName) {
  const { page, errors } = await openPage(browser, graph.html, { waitFor: READY });
  const firstPaint = await page.evaluate(() => window.explorer.firstPaintMs);
  assert.equal(typeof firstPaint, 'number');
  console.log(`${shotName}: first paint ${Math.round(firstPaint)} ms`);
  await screenshot(page, shotName);

  // Search by raw id, then by kernel name: the task is among the results.
  for (const text of [graph.task.id, graph.task.kernel]) {
    await page.fill('#search', text);
    const hit = page.locator(`#search-results .result[data-id="${graph.task.id}"]`);
    await hit.first().waitFor({ state: 'visible', timeout: 10000 });
  }
  await page.locator(`#search-results .result[data-id="${graph.task.id}"]`).first().click();
  await page.locator('#panel').waitFor({ state: 'visible' });
  assert.equal(await page.evaluate(() => window.explorer.selectedTask()), graph.task.id);
  const got = {
    preds: await page.$$eval('#panel-preds .task-link', (ls) => ls.map((l) => l.dataset.id)),
    succs: await page.$$eval('#panel-succs .task-link', (ls) => ls.map((l) => l.dataset.id)),
  };
  assert.deepEqual(got, { preds: graph.task.want.preds, succs: graph.task.want.succs },
    `neighbours of ${graph.task.id} (expected from ${graph.task.want.source})`);
  await screenshot(page, `${shotName}_selected`);

  // A path to the farthest descendant within depth 3 is as short as `depgraph query --path`'s,
  // and every step is an edge.
  const reach = JSON.parse(run(tools.cli, ['query', graph.deps, '--task', graph.task.id, '--depth', '3', '--json']));
  assert.ok(reach.descendants.length > 0, `${graph.task.id} has descendants`);
  const target = reach.descendants[reach.descendants.length - 1].id;
  const want = JSON.parse(run(tools.cli, ['query', graph.deps, '--path', graph.task.id, target, '--json'])).path;
  const steps = await page.evaluate(([a, b]) => window.explorer.path(a, b), [graph.task.id, target]);
  assert.equal(steps.length, want.length, `path ${graph.task.id} -> ${target}: ${steps} vs ${want}`);
  assert.equal(steps[0], graph.task.id);
  assert.equal(steps[steps.length - 1], target);
  for (let i = 0; i + 1 < steps.length; ++i) {
    const succs = await page.evaluate((id) => window.explorer.neighbours(id).succs, steps[i]);
    assert.ok(succs.includes(steps[i + 1]), `${steps[i]} -> ${steps[i + 1]} is an edge`);
  }
  assert.equal(await page.evaluate(([a, b]) => window.explorer.path(b, a), [graph.task.id, target]), null);

  // Each edge set shows the count deps_viewer reports.
  for (const mode of MODES) {
    await page.selectOption('#mode', mode);
    await page.waitForFunction((n) => document.getElementById('edge-count').textContent.trim() === n,
      String(graph.counts[mode]), { timeout: 10000 }).catch(() => {});
    const shown = (await page.textContent('#edge-count')).trim();
    assert.equal(shown, String(graph.counts[mode]), `#edge-count in mode ${mode}`);
    assert.equal(await page.evaluate(() => window.explorer.visibleEdgeCount()), graph.counts[mode]);
  }
  assertNoPageErrors(errors);
  await page.context().close();
}

describe('Explorer page', { skip }, () => {
  const session = browserSession(before, after);

  test('small real capture (--layout layered)', async () => {
    const deps = path.join(sourceDir, 'data', 'real', 'paged_attention', 'CaseSmall1', 'deps.json');
    const names = JSON.parse(readFileSync(path.join(path.dirname(deps),
      'name_map_TestPagedAttention_CaseSmall1.json'), 'utf8'));
    const map = names.callable_id_to_name || names;
    const graph = await prepare(session.dir, 'explorer_small', deps, { layered: true });
    graph.task = pickTask(deps, (k) => map[String(k)], '8589934599');
    await checkPage(session.browser, graph, 'explorer_small');

    // A shared link selects its task; every colouring and the key overlay draw cleanly.
    const { page, errors } = await openPage(session.browser, graph.html,
      { waitFor: READY, hash: `#task=${graph.task.id}` });
    assert.equal(await page.evaluate(() => window.explorer.selectedTask()), graph.task.id);
    await page.locator('#panel').waitFor({ state: 'visible' });
    const colourings = await page.$$eval('#color-by option', (os) => os.map((o) => o.value));
    for (const want of ['core', 'kernel', 'ring', 'scope']) assert.ok(colourings.includes(want), want);
    for (const colouring of colourings) {
      await page.selectOption('#color-by', colouring);
      await page.evaluate(() => window.explorer.renderNow());
    }
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await screenshot(page, 'explorer_small_keys');
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('generated model-sized graph (65536 decode tasks)', async () => {
    const deps = path.join(session.dir, 'deps.json');
    run(tools.genGraph, ['--shape', 'decode', '--tasks', '65536', '--seed', '1', '-o', deps, '-q']);
    // gen_graph writes no kernel names; give each kernel id one that no other contains.
    const kernels = new Set(scanTasks(readFileSync(deps, 'utf8')).map((t) => t.kernel));
    const map = {};
    for (const k of kernels) if (k >= 0) map[String(k)] = `gen_k${k}_op`;
    const names = path.join(session.dir, 'names.json');
    writeFileSync(names, JSON.stringify(map));
    const graph = await prepare(session.dir, 'explorer_65536', deps, { layered: false, names });
    graph.task = pickTask(deps, (k) => map[String(k)]);
    await checkPage(session.browser, graph, 'explorer_65536');
  });

  test('host_build_graph space ids (newer capture layout)', async () => {
    // (space << 62) | (parent << 32) | local: a global task t5, sub-task g3t7 and parameter p5.
    const t5 = 5n, g3t7 = (1n << 62n) | (3n << 32n) | 7n, p5 = (2n << 62n) | 5n;
    const edge = (a, b) => `{"pred":"${a}","succ":"${b}","arg":-1,"source":"explicit"}`;
    const deps = path.join(session.dir, 'hbg_deps.json');
    writeFileSync(deps, `{"runtime":"host_build_graph","edges":[${edge(t5, g3t7)},${edge(p5, g3t7)}]}`);
    const html = path.join(session.dir, 'explorer_hbg.html');
    run(tools.viewer, [deps, '--format', 'html', '--layout', 'layered', '-o', html]);
    const { page, errors } = await openPage(session.browser, html, { waitFor: READY });
    for (const [text, id] of [['g3t7', g3t7], ['p5', p5], ['t5', t5]]) {
      await page.fill('#search', text);
      const hit = page.locator(`#search-results .result[data-id="${id}"]`);
      await hit.first().waitFor({ state: 'visible', timeout: 10000 });
      assert.equal((await hit.first().textContent()).trim().split(' \u00b7 ')[0], text, `search ${text}`);
    }
    await page.locator(`#search-results .result[data-id="${t5}"]`).first().click();
    await page.locator('#panel').waitFor({ state: 'visible' });
    const succs = await page.$$eval('#panel-succs .task-link', (ls) => ls.map((l) => l.textContent));
    assert.ok(succs.some((s) => s.includes('g3t7')), `successors of t5: ${succs}`);
    await screenshot(page, 'explorer_hbg');
    assertNoPageErrors(errors);
    await page.context().close();
  });
});
