// The explorer's tools for the questions a reader asks, in headless Chromium: the path
// question ("why is B after A?", and "unordered" when neither is) answered with the steps
// `depgraph query --path` prints, search matches framed and walked through, the selection's
// neighbours marked, kernel names without a name map, labels and counts on the first view.
// Inputs: a real capture (paged attention CaseSmall1) and paged attention at the runtime's
// Case1 shape (65,536 tasks) captured through our runtime shim.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  assertNoPageErrors, browserSession, buildDir, openPage, run, screenshot,
  skipWithoutChromium, sourceDir, tools,
} from './harness.mjs';

const skip = skipWithoutChromium();
const READY = 'window.explorer && window.explorer.ready === true';
const SMALL = path.join(sourceDir, 'data', 'real', 'paged_attention', 'CaseSmall1', 'deps.json');

const pathCache = new Map();
function queryPath(deps, a, b) {
  const key = `${deps} ${a} ${b}`;
  if (!pathCache.has(key)) {
    pathCache.set(key, JSON.parse(run(tools.cli, ['query', deps, '--path', a, b, '--json'])).path);
  }
  return pathCache.get(key);
}

describe('Explorer tools', { skip }, () => {
  const session = browserSession(before, after);

  test('the path question lists the steps depgraph query prints, or says unordered', async () => {
    const html = path.join(session.dir, 'small.html');
    run(tools.viewer, [SMALL, '--format', 'html', '--layout', 'layered', '-o', html]);
    const { page, errors } = await openPage(session.browser, html, { waitFor: READY });
    const ids = await page.evaluate(() => JSON.parse(document.getElementById('explorer-data').textContent).ids);
    assert.ok(ids.length >= 13, `tasks found: ${ids.length}`);
    let forward = 0, backward = 0, unordered = 0, apart = null;
    for (const a of ids) {
      for (const b of ids) {
        if (a === b) continue;
        const answer = await page.evaluate(([x, y]) => window.explorer.pathBetween(x, y), [a, b]);
        const there = queryPath(SMALL, a, b), back = queryPath(SMALL, b, a);
        if (there) {
          assert.equal(answer.direction, 'forward', `${a} -> ${b}`);
          assert.deepEqual(answer.steps.map((s) => s.id), there.map(String), `${a} -> ${b}`);
          forward++;
        } else if (back) {
          assert.equal(answer.direction, 'backward', `${a} -> ${b}`);
          assert.deepEqual(answer.steps.map((s) => s.id), back.map(String), `${b} -> ${a}`);
          backward++;
        } else {
          assert.equal(answer.direction, 'none', `${a} -> ${b}`);
          assert.match(await page.textContent('#path-result'), /unordered/);
          unordered++;
          apart = apart || [a, b];
        }
        // Every listed step but the last names the sources of the edge to the next one.
        for (const step of answer.steps.slice(0, -1)) assert.ok(step.via.length, JSON.stringify(step));
      }
    }
    assert.ok(forward && backward && unordered, `${forward} ${backward} ${unordered}`);

    // The same through the controls: typed ends, the listed steps, the edge facts.
    await page.keyboard.press('Escape');
    await page.click('#path-button');
    await page.fill('#path-from', '(2, 0)');
    await page.fill('#path-to', '(2, 7)');
    await page.click('#path-go');
    const listed = await page.$$eval('#path-steps .step', (ls) => ls.map((l) => l.dataset.id));
    assert.deepEqual(listed, queryPath(SMALL, '8589934592', '8589934599').map(String));
    assert.match(await page.textContent('#path-steps'), /creator \[wait,retain\] arg0 T2/);
    await screenshot(page, 'explorer_path_listed');
    // An ambiguous end is named, not guessed.
    await page.fill('#path-from', 'QK');
    await page.click('#path-go');
    assert.match(await page.textContent('#path-result'), /3 tasks match "QK": give an id/);
    // The panel's buttons set the ends.
    await page.evaluate((id) => window.explorer.selectTask(id), apart[0]);
    await page.click('#panel [data-act="path-start"]');
    await page.evaluate((id) => window.explorer.selectTask(id), apart[1]);
    await page.click('#panel [data-act="path-end"]');
    const answer = await page.evaluate(() => window.explorer.pathResult());
    assert.deepEqual([answer.from, answer.to, answer.direction], [...apart, 'none']);
    assert.match(await page.textContent('#path-result'), /No path either way: .* are unordered/);
    await screenshot(page, 'explorer_path_unordered');
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('search frames every match and walks through them; shift-click sets the second task', async () => {
    const html = path.join(session.dir, 'small_search.html');
    run(tools.viewer, [SMALL, '--format', 'html', '--layout', 'layered', '-o', html]);
    const { page, errors } = await openPage(session.browser, html, { waitFor: READY });
    await page.fill('#search', 'sf');
    await page.locator('#search-results .result').first().waitFor({ state: 'visible' });
    const matches = await page.evaluate(() => window.explorer.searchMatches());
    assert.deepEqual(matches, ['8589934593', '8589934597', '8589934601']);
    assert.equal((await page.textContent('#search-count')).trim(), '3 matches');
    await page.press('#search', 'Enter');
    assert.equal(await page.evaluate(() => window.explorer.selectedTask()), '8589934593');
    assert.equal((await page.textContent('#search-count')).trim(), '1/3');
    await page.click('#search-next');
    assert.equal(await page.evaluate(() => window.explorer.selectedTask()), '8589934597');
    await page.click('#search-prev');
    await page.click('#search-prev');
    assert.equal(await page.evaluate(() => window.explorer.selectedTask()), '8589934601');
    // The selection's neighbours are the ones depgraph query names.
    const q = JSON.parse(run(tools.cli, ['query', SMALL, '--task', '8589934601', '--json']));
    assert.deepEqual(await page.evaluate(() => window.explorer.markedNeighbours()),
      { preds: q.preds.map(String), succs: q.succs.map(String) });
    // Shift-click on a result keeps the selection and sets the second task: the path is listed.
    await page.fill('#search', 'QK');
    const first = page.locator('#search-results .result[data-id="8589934600"]');
    await first.waitFor({ state: 'visible' });
    await first.click({ modifiers: ['Shift'] });
    assert.equal(await page.evaluate(() => window.explorer.selectedTask()), '8589934601');
    const result = await page.evaluate(() => window.explorer.pathResult());
    assert.equal(result.direction, 'backward');
    assert.deepEqual(result.steps.map((s) => s.id), queryPath(SMALL, '8589934600', '8589934601').map(String));
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('without a name map kernels are f<id>: colouring, search and labels work', async () => {
    const dir = path.join(session.dir, 'nonames');
    mkdirSync(dir, { recursive: true });
    const deps = path.join(dir, 'deps.json');
    copyFileSync(SMALL, deps);  // no sibling name map
    const html = path.join(dir, 'page.html');
    run(tools.viewer, [deps, '--format', 'html', '--layout', 'layered', '-o', html]);
    const { page, errors } = await openPage(session.browser, html, { waitFor: READY });
    await page.selectOption('#color-by', 'kernel');
    const legend = await page.$$eval('#legend .item', (items) => items.map((i) => i.textContent));
    for (const name of ['f0', 'f1', 'f2', 'f3']) {
      assert.ok(legend.some((t) => t.startsWith(name + ' ')), `${name} in ${legend}`);
    }
    assert.deepEqual(await page.evaluate(() => window.explorer.search('f0')),
      ['8589934592', '8589934596', '8589934600']);
    assert.ok(await page.evaluate(() => window.explorer.labelsDrawn()));
    await screenshot(page, 'explorer_no_name_map');
    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('model scale (paged attention Case1, 65,536 tasks): labels and counts on the first view', async () => {
    const module = path.join(buildDir, 'tests', 'orchestrations', 'modules', 'liborch_paged_attention.so');
    assert.ok(existsSync(module), module);
    const deps = path.join(session.dir, 'pa', 'deps.json');
    run(tools.orchRunner, [module, '-a', path.join(sourceDir, 'bench', 'inputs', 'paged_attention_Case1.json'),
      '-o', deps]);
    const html = path.join(session.dir, 'pa', 'page.html');
    const started = Date.now();
    run(tools.viewer, [deps, '--format', 'html', '-o', html]);
    console.log(`65k page written in ${Date.now() - started} ms (with the process start)`);
    const { page, errors } = await openPage(session.browser, html, { waitFor: READY });
    console.log(`first paint ${Math.round(await page.evaluate(() => window.explorer.firstPaintMs))} ms`);
    assert.ok(await page.evaluate(() => window.explorer.labelsDrawn()), 'labels on the first view');
    // The counts are never cut: the title's counts end inside the header's title box.
    const box = await page.evaluate(() => {
      const t = document.querySelector('#title').getBoundingClientRect();
      const sub = document.querySelector('#title .sub').getBoundingClientRect();
      return { t: t.right, sub: sub.right, text: document.querySelector('#title .sub').textContent };
    });
    assert.ok(box.sub <= box.t + 0.5, JSON.stringify(box));
    assert.match(box.text, /65,792 tasks/);
    // The first view: the 256 requests as 256 labelled boxes (inside the open series' frame),
    // the whole graph at once, no task box.
    let boxes = await page.evaluate(() => window.explorer.groupBoxes());
    const closed = boxes.filter((b) => !b.open);
    assert.equal(closed.length, 256);
    assert.ok(boxes.length <= 300, `${boxes.length} boxes`);
    assert.deepEqual(boxes.filter((b) => b.open).map((b) => b.title), ['G0 \u00d7256']);
    assert.equal(await page.evaluate(() => window.explorer.shownNodeCount()), 0);
    assert.ok(await page.evaluate(() => window.explorer.unitLabelsDrawn()) >= 256);
    assert.equal(await page.evaluate(() => window.explorer.noteText()), '', 'the whole graph shows');
    await screenshot(page, 'explorer_pa_case1_first_view');
    // Opening request 17 draws its inside in its box; no other box moves.
    const before = Object.fromEntries(closed.map((b) => [b.title, b]));
    const r17 = closed.find((b) => b.title === '#17');
    assert.match(r17.detail, /257 nodes/);
    await page.evaluate((u) => window.explorer.toggleGroup(u), r17.unit);
    boxes = await page.evaluate(() => window.explorer.groupBoxes());
    for (const b of boxes.filter((x) => !x.open && before[x.title])) {
      assert.deepEqual([b.x0, b.y0, b.x1, b.y1], [before[b.title].x0, before[b.title].y0,
        before[b.title].x1, before[b.title].y1], b.title);
    }
    const inside = boxes.filter((b) => b.x0 >= r17.x0 && b.x1 <= r17.x1 && b.y0 >= r17.y0 &&
      b.y1 <= r17.y1 && b.unit !== r17.unit);
    assert.deepEqual(inside.map((b) => b.title), ['G1 \u00d764'], 'its 64 blocks, collapsed');
    assert.equal(await page.evaluate(() => window.explorer.shownNodeCount()), 1, 'its allocation');
    // The allocation feeds all 64 blocks: one arrow carrying 64 pairs (full mode).
    const arrows = await page.evaluate(() => window.explorer.groupArrows());
    assert.deepEqual(arrows.map((a) => a.count), [64]);
    await page.evaluate((u) => window.explorer.toggleGroup(u), inside[0].unit);
    assert.equal(await page.evaluate(() => window.explorer.shownNodeCount()), 1);
    assert.equal((await page.evaluate(() => window.explorer.groupBoxes())).filter((b) => !b.open).length, 255 + 64);
    await page.keyboard.press('f');
    // The structure: 256 requests of 64 blocks, as depgraph query --groups finds it.
    const groups = JSON.parse(run(tools.cli, ['query', deps, '--groups', '--json'])).groups;
    const pageGroups = await page.evaluate(() => window.explorer.groups());
    assert.equal(pageGroups.series.length, 1);
    assert.equal(pageGroups.series[0].count, 256);
    assert.equal(pageGroups.kinds[pageGroups.series[0].kind].size, 257);
    assert.equal(pageGroups.kinds.length, groups.kinds.length);
    let rows = await page.evaluate(() => window.explorer.structureRows());
    assert.equal(rows.length, 1);
    assert.match(rows[0].text, /^G0 \u00d7256 257 nodes each \(1 alloc\): QK, SF, PV, UP$/);
    await page.evaluate(() => window.explorer.toggleStructureRow(0));
    rows = await page.evaluate(() => window.explorer.structureRows());
    assert.equal(rows.length, 257);
    // A click on request 17 marks exactly its 257 nodes: its accumulator allocation (1, 17)
    // and its 256 tasks.
    await page.evaluate(() => window.explorer.clickStructureRow(18));
    const marked = await page.evaluate(() => window.explorer.highlighted());
    assert.equal(marked.length, 257);
    assert.ok(marked.includes(String((1n << 32n) | 17n)), 'the allocation (1, 17)');
    assert.ok(marked.includes(String((2n << 32n) | 4607n)), 'its last task (2, 4607)');
    await screenshot(page, 'explorer_pa_case1_group');
    // Selecting a task opens the rows that hold it: request 18, block 5.
    const task = String((2n << 32n) | BigInt(18 * 256 + 5 * 4 + 2));
    await page.evaluate((id) => window.explorer.selectTask(id), task);
    assert.deepEqual(await page.evaluate((id) => window.explorer.groupChain(id), task),
      [{ kind: 0, count: 256, instance: 18 }, { kind: 1, count: 64, instance: 5 }]);
    const current = (await page.evaluate(() => window.explorer.structureRows())).filter((r) => r.current);
    assert.equal(current.length, 1);
    assert.match(current[0].text, /^G1 #5 /);
    // ... and the boxes on the canvas: request 18 and its block 5 open, the task drawn.
    const open = (await page.evaluate(() => window.explorer.groupBoxes())).filter((b) => b.open);
    assert.ok(open.some((b) => b.title === '#18') && open.some((b) => b.title === '#5'),
      JSON.stringify(open.map((b) => b.title)));
    const at = await page.evaluate((id) => window.explorer.screenPosition(id), task);
    assert.ok(at.x > 0 && at.y > 0, JSON.stringify(at));
    // Search marks the collapsed boxes holding matches, with their counts.
    await page.fill('#search', 'UP');
    await page.press('#search', 'Enter');
    assert.equal((await page.textContent('#search-count')).trim(), '1/16,384');
    const marked17 = (await page.evaluate(() => window.explorer.groupBoxes())).filter((b) => b.matches);
    assert.ok(marked17.length >= 250, `${marked17.length} boxes hold matches`);
    assert.ok(marked17.every((b) => b.matches === 64 || b.matches === 1), JSON.stringify(marked17.slice(0, 3)));
    await screenshot(page, 'explorer_pa_case1_search');


    assertNoPageErrors(errors);
    await page.context().close();
  });

  test('a decode-shaped model (40 chained layers of 4 requests): layer boxes, counted arrows, paths across boxes', async () => {
    const module = path.join(buildDir, 'tests', 'orchestrations', 'modules', 'liborch_decode_like.so');
    const deps = path.join(session.dir, 'decode', 'deps.json');
    run(tools.orchRunner, [module, '-a', path.join(sourceDir, 'tests', 'orchestrations', 'cases',
      'decode_like.json'), '-o', deps]);
    const html = path.join(session.dir, 'decode', 'page.html');
    run(tools.viewer, [deps, '--format', 'html', '-o', html]);
    const { page, errors } = await openPage(session.browser, html, { waitFor: READY });
    // The first view: the 40 decoder layers, whole, labelled, in reading order.
    const boxes = await page.evaluate(() => window.explorer.groupBoxes());
    const layers = boxes.filter((b) => !b.open);
    assert.deepEqual(layers.map((b) => b.title), Array.from({ length: 40 }, (_, k) => '#' + k));
    assert.ok(layers.every((b) => /^269 nodes \u00b7 G0 /.test(b.detail)), layers[0].detail);
    assert.ok(await page.evaluate(() => window.explorer.unitLabelsDrawn()) >= 40);
    const rows = new Set(layers.map((b) => Math.round(b.y0))).size;
    assert.ok(rows > 2 && rows < 40, `${rows} rows: wrapped, not one line`);
    // Consecutive layers are linked by one arrow each, carrying the pairs between them.
    const arrows = await page.evaluate(() => window.explorer.groupArrows());
    assert.equal(arrows.length, 39);
    const unitOf = Object.fromEntries(layers.map((b) => [b.unit, Number(b.title.slice(1))]));
    for (const a of arrows) {
      assert.equal(unitOf[a.to], unitOf[a.from] + 1, JSON.stringify(a));
      assert.ok(a.count >= 1);
    }
    await screenshot(page, 'explorer_decode_like_first_view');
    // Opening layer 0 shows its nodes and its 4 requests as one collapsed series.
    await page.evaluate((u) => window.explorer.toggleGroup(u), layers[0].unit);
    const inside = (await page.evaluate(() => window.explorer.groupBoxes()))
      .filter((b) => b.x0 >= layers[0].x0 && b.x1 <= layers[0].x1 && b.y0 >= layers[0].y0 &&
        b.y1 <= layers[0].y1 && b.unit !== layers[0].unit);
    assert.deepEqual(inside.map((b) => b.title), ['G1 \u00d74']);
    assert.equal(await page.evaluate(() => window.explorer.shownNodeCount()), 269 - 256);
    // A path from layer 0 into layer 3 is listed step by step and marks the boxes it crosses.
    const ids = await page.evaluate(() => JSON.parse(document.getElementById('explorer-data').textContent).ids);
    const groups = JSON.parse(run(tools.cli, ['query', deps, '--groups', '--json'])).groups;
    const first = groups.series[0].first, last = groups.series[0].last;
    const answer = await page.evaluate(([a, b]) => window.explorer.pathBetween(a, b), [first, last]);
    assert.equal(answer.direction, 'forward');
    assert.deepEqual(answer.steps.map((x) => x.id), queryPath(deps, first, last).map(String));
    const marked = (await page.evaluate(() => window.explorer.groupBoxes())).filter((b) => !b.open && b.highlight);
    assert.ok(marked.length >= 38, `${marked.length} collapsed layers on the path`);
    assert.ok(ids.includes(first) && ids.includes(last));
    await screenshot(page, 'explorer_decode_like_path');
    assertNoPageErrors(errors);
    await page.context().close();
  });
});
