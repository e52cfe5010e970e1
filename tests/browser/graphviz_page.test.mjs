// The Graphviz page (deps_viewer --format html on a small graph) in headless Chromium: no
// console error, one SVG node per task, honest counts with ghosted edges, the detail panel's
// neighbour lists (checked against the graph), jumping to a neighbour, fit below the header,
// drawn markers and readable tooltips.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  assertNoPageErrors, expectedNeighbours, openPage, run, screenshot,
  browserSession, skipWithoutChromium, sourceDir, tools,
} from './harness.mjs';

const skip = skipWithoutChromium();
const CAPTURE = 'paged_attention/CaseSmall1/deps.json';
const DEPS = path.join(sourceDir, 'data', 'real', CAPTURE);

// Every task id of a deps.json (tasks and edge endpoints) as raw decimal strings.
function taskIds(depsFile) {
  const data = JSON.parse(readFileSync(depsFile, 'utf8'));
  const ids = new Set();
  for (const t of data.tasks || []) ids.add(String(BigInt(t.task_id)));
  for (const e of data.edges || []) {
    ids.add(String(BigInt(e.pred)));
    ids.add(String(BigInt(e.succ)));
  }
  return ids;
}

// Renders the capture's Graphviz page in `mode`.
function renderPage(dir, mode) {
  const out = path.join(dir, `graphviz_${mode}.html`);
  const stdout = run(tools.viewer,
    [DEPS, '--format', 'html', '--edge-mode', mode, '--layout', 'graphviz', '-o', out]);
  return { file: out, stdout };
}

// A small graph with every marker and edge kind: early-dispatch tasks (🔥), fully fed ones
// (⭐, one of them 🔥⭐), an SPMD task, a dummy, explicit edges, a partial overlap and, in
// reduced mode, one ghost edge (1 -> 5).
const MARKERS_JSON = String.raw`{"tasks":[
 {"task_id":"1","scope":"auto","early_dispatch":true,"kernel_ids":[-1,5,-1],"block_num":1,"args":[{"idx":0,"type":"OUTPUT","tensor_id":"7","dtype":"FLOAT32","shape":[8],"start_offset":"0","strides":[1]}]},
 {"task_id":"2","scope":"auto","early_dispatch":true,"kernel_ids":[3,-1,-1],"block_num":4,"args":[{"idx":0,"type":"OUTPUT","tensor_id":"8","dtype":"FLOAT32","shape":[8],"start_offset":"0","strides":[1]}]},
 {"task_id":"3","scope":"auto","early_dispatch":false,"kernel_ids":[3,5,5],"block_num":1,"args":[{"idx":0,"type":"INPUT","tensor_id":"7","dtype":"FLOAT32","shape":[8],"start_offset":"0","strides":[1]},{"idx":1,"type":"INOUT","tensor_id":"8","dtype":"FLOAT32","shape":[4],"start_offset":"0","strides":[1]}]},
 {"task_id":"4","scope":"auto","early_dispatch":true,"kernel_ids":[-1,5,-1],"block_num":1,"args":[{"idx":0,"type":"INPUT","tensor_id":"7","dtype":"FLOAT32","shape":[8],"start_offset":"0","strides":[1]}]},
 {"task_id":"5","scope":"auto","early_dispatch":false,"kernel_ids":[-1,-1,-1],"block_num":1,"args":[]}],
 "tensors":[{"tensor_id":"7","buffer_addr":"4096","version":0,"dtype":"FLOAT32","buffer_numel":"8"},{"tensor_id":"8","buffer_addr":"8192","version":0,"dtype":"FLOAT32","buffer_numel":"8"}],
 "edges":[
 {"pred":"1","succ":"3","arg":0,"source":"tensormap","flags":["wait"],"overlap":"covered","tensor_id":"7"},
 {"pred":"2","succ":"3","arg":1,"source":"tensormap","flags":["wait"],"overlap":"partial","tensor_id":"8"},
 {"pred":"1","succ":"4","arg":0,"source":"tensormap","flags":["wait"],"overlap":"covered","tensor_id":"7"},
 {"pred":"3","succ":"5","arg":-1,"source":"explicit","flags":["wait","retain"]},
 {"pred":"4","succ":"5","arg":-1,"source":"explicit","flags":["wait","retain"]},
 {"pred":"1","succ":"5","arg":-1,"source":"explicit","flags":["wait","retain"]}]}`;

describe('Graphviz page', { skip }, () => {
  const session = browserSession(before, after);

  test('loads without errors, one node per task, title and header name capture and mode', async () => {
    const { file } = renderPage(session.dir, 'full');
    const { page, errors } = await openPage(session.browser, file);
    const ids = taskIds(DEPS);
    const nodeIds = await page.$$eval('#stage svg g.node', (groups) =>
      groups.map((g) => depStats[g.dataset.node].id));
    assert.equal(nodeIds.length, ids.size);
    assert.deepEqual(new Set(nodeIds), ids);
    const title = await page.title();
    assert.match(title, /^paged_attention\/CaseSmall1\/deps\.json — full: 13 nodes, 17 edges$/);
    assert.equal(await page.textContent('#capture'), CAPTURE);
    assert.equal(await page.textContent('#edge-mode'), 'full');
    // Tooltips name tasks the way labels do, not by DOT id.
    const tips = await page.$$eval('#stage svg g.node > title', (ts) => ts.map((t) => t.textContent));
    for (const tip of tips) assert.doesNotMatch(tip, /^T\d+_\d+/, tip);
    assert.ok(tips.some((tip) => tip.startsWith('(2, 7) · UP')), tips.join('\n'));
    const edgeTip = await page.$eval('#stage svg g.edge > title', (t) => t.textContent);
    assert.match(edgeTip, /^\(\d+, \d+\) · \S+ → \(\d+, \d+\) · \S+$/);
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('markers are drawn shapes, not emoji text', async () => {
    const { file } = renderPage(session.dir, 'full');
    const dot = run(tools.viewer, [DEPS, '--format', 'dot', '-o', path.join(session.dir, 'g.dot')]);
    assert.ok(dot.includes('format=dot'));
    const dotText = readFileSync(path.join(session.dir, 'g.dot'), 'utf8');
    const fires = (dotText.match(/\u{1F525}/gu) || []).length;
    const stars = (dotText.match(/\u2B50/gu) || []).length;
    const { page, errors } = await openPage(session.browser, file);
    const texts = await page.$$eval('#stage svg text', (ts) => ts.map((t) => t.textContent));
    for (const t of texts) assert.doesNotMatch(t, /[\u{1F525}\u2B50]/u, t);
    assert.equal(await page.locator('#stage .marker-fire').count(), fires);
    assert.equal(await page.locator('#stage .marker-star').count(), stars);
    assert.ok(fires > 0, 'the alloc task carries a 🔥 marker');
    // The legend shows the marker items that apply.
    assert.ok(await page.locator('#legend [data-only="fire"]').isVisible());
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('--show-tensor-info tables: drawn markers and every legend item that applies', async () => {
    const deps = path.join(session.dir, 'markers', 'deps.json');
    mkdirSync(path.dirname(deps), { recursive: true });
    writeFileSync(deps, MARKERS_JSON);
    writeFileSync(path.join(session.dir, 'markers', 'name_map.json'),
      JSON.stringify({ callable_id_to_name: { 3: 'matmul', 5: 'softmax' } }));
    const file = path.join(session.dir, 'markers.html');
    run(tools.viewer, [deps, '--format', 'html', '--edge-mode', 'reduced', '--show-tensor-info', '-o', file]);
    const { page, errors } = await openPage(session.browser, file);
    const texts = await page.$$eval('#stage svg text', (ts) => ts.map((t) => t.textContent));
    for (const t of texts) assert.doesNotMatch(t, /[\u{1F525}\u2B50]/u, t);
    assert.equal(await page.locator('#stage .marker-fire').count(), 3);
    assert.equal(await page.locator('#stage .marker-star').count(), 2);
    for (const item of ['fire', 'star', 'dummy', 'explicit', 'overlap', 'ghost']) {
      assert.ok(await page.locator(`#legend [data-only="${item}"]`).isVisible(), item);
    }
    assert.match(await page.title(), /^\S*markers\/deps\.json — reduced: 5 nodes, 5 of 6 edges$/);
    await page.locator('#stage svg g.node[data-node="T0_4"]').click();
    assert.match(await page.textContent('#detail-title'), /^4 · softmax$/);
    await screenshot(page, 'graphviz_rich_markers_selected');
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('edges are grey, not Graphviz\'s black fallback; a NUL in a name shows as \\0', async () => {
    const { file } = renderPage(session.dir, 'full');
    const { page, errors } = await openPage(session.browser, file);
    const strokes = await page.$$eval('#stage g.edge path', (ps) => ps.map((p) => p.getAttribute('stroke')));
    assert.equal(strokes.length, 17);
    for (const stroke of strokes) assert.match(stroke, /^#(888888|b0b0b0)$/i, stroke);
    const heads = await page.$$eval('#stage g.edge polygon', (ps) => ps.map((p) => p.getAttribute('fill')));
    for (const fill of heads) assert.match(fill, /^#(888888|b0b0b0)$/i, fill);
    await screenshot(page, 'graphviz_full_grey_edges');
    assertNoPageErrors(errors);
    await page.context().close();

    const deps = path.join(session.dir, 'nul', 'deps.json');
    mkdirSync(path.dirname(deps), { recursive: true });
    writeFileSync(deps, MARKERS_JSON);
    writeFileSync(path.join(session.dir, 'nul', 'name_map.json'), '{"3": "mat\\u0000mul", "5": "softmax"}');
    const nulPage = path.join(session.dir, 'nul.html');
    run(tools.viewer, [deps, '--format', 'html', '-o', nulPage]);
    const opened = await openPage(session.browser, nulPage);
    const texts = await opened.page.$$eval('#stage svg g.node text', (ts) => ts.map((t) => t.textContent));
    assert.ok(texts.some((t) => t.includes('mat\\0mul')), texts.join(' | '));
    await opened.page.locator('#stage svg g.node[data-node="T0_2"]').click();
    assert.match(await opened.page.textContent('#detail-title'), /^2 · mat\\0mul$/);
    await screenshot(opened.page, 'graphviz_nul_name_selected');
    assertNoPageErrors(opened.errors);
    await opened.page.context().close();
  });

  test('fit keeps the drawing below the header and above the legend', async () => {
    const { file } = renderPage(session.dir, 'full');
    const { page, errors } = await openPage(session.browser, file);
    await page.keyboard.press('f');
    const box = await page.evaluate(() => {
      const nodes = [...document.querySelectorAll('#stage svg g.node')].map((g) => g.getBoundingClientRect());
      return {
        top: Math.min(...nodes.map((r) => r.top)), bottom: Math.max(...nodes.map((r) => r.bottom)),
        hud: document.getElementById('hud').getBoundingClientRect().bottom,
        legend: document.getElementById('legend').getBoundingClientRect().top,
      };
    });
    assert.ok(box.top >= box.hud, `top node at ${box.top} is under the header (bottom ${box.hud})`);
    assert.ok(box.bottom <= box.legend, `bottom node at ${box.bottom} is under the legend (${box.legend})`);
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('clicking a node lists its predecessors and successors; a click on one jumps to it', async () => {
    const { file } = renderPage(session.dir, 'full');
    const { page, errors } = await openPage(session.browser, file);
    const groups = await page.$$eval('#stage svg g.node', (gs) => gs.map((g) => g.dataset.node));
    for (const dotId of groups) {
      await page.locator(`#stage svg g.node[data-node="${dotId}"]`).click();
      const id = await page.evaluate((d) => depStats[d].id, dotId);
      const want = expectedNeighbours(DEPS, id);
      const got = {
        preds: await page.$$eval('#detail-preds .task-link', (ls) => ls.map((l) => l.dataset.id)),
        succs: await page.$$eval('#detail-succs .task-link', (ls) => ls.map((l) => l.dataset.id)),
      };
      assert.deepEqual(got, { preds: want.preds, succs: want.succs }, `task ${id} (${want.source})`);
      // Highlighted in the drawing: the neighbours and the task's edges.
      const marked = await page.evaluate(() => ({
        preds: document.querySelectorAll('#stage g.node.hl-pred').length,
        succs: document.querySelectorAll('#stage g.node.hl-succ').length,
        selected: [...document.querySelectorAll('#stage g.node.selected')].map((g) => g.dataset.node),
      }));
      assert.deepEqual(marked, { preds: want.preds.length, succs: want.succs.length, selected: [dotId] });
    }
    // (2, 7): four predecessors; jump to the first one.
    await page.locator('#stage svg g.node[data-node="T2_7"]').click();
    assert.match(await page.textContent('#detail-title'), /^\(2, 7\) · UP$/);
    await screenshot(page, 'graphviz_full_selected');
    const target = await page.$eval('#detail-preds .task-link', (l) => l.dataset.node);
    await page.locator('#detail-preds .task-link').first().click();
    const after = await page.evaluate((t) => {
      const g = document.querySelector(`#stage g.node[data-node="${t}"]`).getBoundingClientRect();
      const p = document.getElementById('detail').getBoundingClientRect();
      return {
        selected: document.querySelector('#stage g.node.selected').dataset.node,
        title: document.getElementById('detail-title').textContent,
        cx: g.left + g.width / 2, panelLeft: p.left, cy: g.top + g.height / 2, h: innerHeight,
      };
    }, target);
    assert.equal(after.selected, target);
    assert.match(after.title, new RegExp(`^\\(\\d+, \\d+\\) · `));
    assert.ok(after.cx > 0 && after.cx < after.panelLeft, `centred left of the panel: ${JSON.stringify(after)}`);
    assert.ok(after.cy > 0 && after.cy < after.h);
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('reduced modes ghost the removed edges and count them honestly', async () => {
    const { file, stdout } = renderPage(session.dir, 'reduced_dataflow');
    assert.match(stdout, /removed 1 redundant edge\(s\) of 17 \(16 kept\)/);
    const { page, errors } = await openPage(session.browser, file);
    assert.equal(await page.title(), `${CAPTURE} — reduced_dataflow: 13 nodes, 16 of 17 edges`);
    assert.equal(await page.textContent('#edge-mode'), 'reduced_dataflow');
    const ghosts = await page.$$eval('#stage g.edge.hidden-edge path', (ps) => ps.map((p) => {
      const cs = getComputedStyle(p);
      return { stroke: cs.stroke, opacity: Number(cs.strokeOpacity), dash: cs.strokeDasharray };
    }));
    assert.equal(ghosts.length, 1);
    assert.notEqual(ghosts[0].stroke, 'rgb(238, 242, 247)', 'a ghost is not background-coloured');
    assert.ok(ghosts[0].opacity > 0.1 && ghosts[0].opacity < 1);
    assert.notEqual(ghosts[0].dash, 'none');
    assert.ok(await page.locator('#legend [data-only="ghost"]').isVisible());
    // The ghost's head: its panel says drawn and total.
    const succ = await page.$eval('#stage g.edge.hidden-edge', (g) => g.dataset.succ);
    await page.locator(`#stage svg g.node[data-node="${succ}"]`).click();
    const sub = await page.textContent('#detail-sub');
    assert.match(sub, /↓\d+ predecessors? \(\d+ drawn, 1 ghosted\)/, sub);
    assert.equal(await page.locator('#detail-preds .task-link.ghost').count(), 1);
    await screenshot(page, 'graphviz_reduced_dataflow_selected');
    assertNoPageErrors(errors);
    await page.context().close();
  });
});
