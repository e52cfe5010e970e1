// The explorer page on captures with a perf sidecar (chip_swimlane_records.json beside
// deps.json): every task's duration is the one computed here from the records (the reader's
// rules of spec/timing.md §1.4, written independently), the panel and the tooltip show it,
// and colouring by duration paints the shortest task pale yellow and the longest red, then
// toggles back. A small timing capture and a generated 65536-task graph with synthetic
// records (gen_graph --timing-records).
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  assertNoPageErrors, browserSession, openPage, run, screenshot, skipWithoutChromium,
  sourceDir, tools,
} from './harness.mjs';

const skip = skipWithoutChromium();
const READY = 'window.explorer && window.explorer.ready === true';
const SHORTEST = [255, 244, 196];  // the duration scale's ends (explorer.js)
const LONGEST = [215, 48, 31];

// Per task id (decimal string): duration in µs, from the records as the converter's reader
// joins them (AICPU rows select AICore rows by core and dispatch token; level 1 without AICPU
// rows takes every AICore row), with µs counted from the smallest non-zero timestamp.
// JSON.parse loses precision above 2^53, so ids and ticks are read as text first.
function expectedDurations(file) {
  const text = readFileSync(file, 'utf8').replace(/(-?\d{16,})/g, '"$1"');
  const doc = JSON.parse(text);
  const big = (v) => BigInt(v);
  const freq = Number(doc.metadata.clock_freq_hz);
  const aicore = doc.aicore_tasks.map((r) => r.map(big));
  const aicpu = (doc.aicpu_tasks || []).map((r) => r.map(big));
  let base = null;
  const track = (t) => { if (t > 0n && (base === null || t < base)) base = t; };
  for (const r of aicore) { track(r[3] - (r.length > 5 ? r[5] : 0n)); track(r[4]); }
  for (const r of aicpu) { track(r[2]); track(r[3]); }
  const byKey = new Map(aicore.map((r) => [`${r[0]}/${r[2]}`, r]));
  let rows = [];
  if (aicpu.length) {
    rows = aicpu.map((r) => byKey.get(`${r[0]}/${r[1]}`)).filter(Boolean);
  } else if (Number(doc.chip_swimlane_level) === 1) {
    rows = aicore;
  }
  const us = (t) => (t <= 0n ? 0 : Number(t - base) * (1e6 / freq));
  const span = new Map();
  for (const r of rows) {
    const id = String(r[1]);
    const [s, e] = span.get(id) || [Infinity, -Infinity];
    span.set(id, [Math.min(s, us(r[3])), Math.max(e, us(r[4]))]);
  }
  const out = new Map();
  for (const [id, [s, e]] of span) out.set(id, e - s);
  return out;
}

// The observed critical path of `depgraph critical-path` (task ids, first to last) for the rank
// in `dir`, written to a JSON report beside it.
function observedPathOf(dir) {
  const json = path.join(path.dirname(dir), path.basename(dir) + '_cp.json');
  run(tools.cli, ['critical-path', dir, '--json', json]);
  const doc = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(doc.ranks.length, 1);
  return doc.ranks[0].observed_path.tasks.map((t) => t.task_id);
}

// Checks the timeline's idle-while-ready stretches against the records: each lies where its
// core ran nothing, its waiting task's producers had all ended by its start, and the task
// itself started no earlier than its end. `records` and `deps` are the parsed files.
function checkIdleStretches(stretches, records, deps) {
  const freq = Number(records.metadata.clock_freq_hz);
  const rows = records.aicore_tasks;
  let base = Infinity;
  for (const r of rows) if (r[3] > 0) base = Math.min(base, r[3]);
  for (const r of records.aicpu_tasks || []) if (r[2] > 0) base = Math.min(base, r[2]);
  const us = (t) => (t - base) * 1e6 / freq;
  const span = new Map();
  for (const r of rows) {
    const id = String(r[1]);
    const [a, b] = span.get(id) || [Infinity, -Infinity];
    span.set(id, [Math.min(a, us(r[3])), Math.max(b, us(r[4]))]);
  }
  const eps = 0.01;
  for (const st of stretches) {
    const core = Number(st.lane.split(' ')[1]);
    for (const r of rows) {
      if (r[0] !== core) continue;
      assert.ok(us(r[4]) <= st.start + eps || us(r[3]) >= st.end - eps,
        `core ${core} runs ${r[1]} during the idle stretch ${st.start}-${st.end}`);
    }
    const preds = deps.edges.filter((e) => String(e.succ) === st.waiting).map((e) => String(e.pred));
    assert.ok(preds.length > 0, `${st.waiting} has producers`);
    for (const p of preds) {
      if (span.has(p)) assert.ok(span.get(p)[1] <= st.start + eps, `producer ${p} ended by ${st.start}`);
    }
    assert.ok(span.get(st.waiting)[0] >= st.end - eps, `${st.waiting} started after the stretch`);
  }
}

// Centres a task (selecting it, then closing the panel) and waits until the view is still,
// so that frames are drawn sharply rather than from the cached overview.
async function centre(page, id) {
  assert.equal(await page.evaluate((i) => window.explorer.selectTask(i), id), true, `select ${id}`);
  await page.keyboard.press('Escape');
  await page.waitForTimeout(250);
}

// The colour drawn at a task's centre (labels must be off, so that no text covers it).
async function colourAt(page, id) {
  await centre(page, id);
  const pos = await page.evaluate((i) => window.explorer.screenPosition(i), id);
  return page.evaluate(([x, y]) => {
    window.explorer.renderNow();
    const c = document.getElementById('view');
    const dpr = window.devicePixelRatio || 1;
    return Array.from(c.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data).slice(0, 3);
  }, [pos.x, pos.y]);
}

function near(got, want, what) {
  assert.ok(got.every((v, k) => Math.abs(v - want[k]) <= 3), `${what}: rgb(${got}) is not rgb(${want})`);
}

// Checks durations, panel, tooltip and the duration colouring on an open explorer page.
async function checkTimings(page, want, { shortest, longest, shot }) {
  // Every task's duration as the page holds it (rounded to the nanosecond).
  const got = await page.evaluate((ids) => ids.map((id) => window.explorer.duration(id)), [...want.keys()]);
  [...want.values()].forEach((v, k) => {
    assert.ok(Math.abs(got[k] - v) < 0.0015, `duration of ${[...want.keys()][k]}: ${got[k]} vs ${v}`);
  });

  // The panel of the longest task says its duration.
  const text = `${Number(want.get(longest)).toLocaleString('en-US', { maximumFractionDigits: 3 })} \u00b5s`;
  assert.equal(await page.evaluate((id) => window.explorer.selectTask(id), longest), true);
  const row = page.locator('#panel .kv tr', { hasText: 'duration' });
  await row.waitFor({ state: 'visible' });
  assert.ok((await row.textContent()).includes(text), `panel: ${await row.textContent()} lacks ${text}`);
  await page.keyboard.press('Escape');

  // The tooltip of a hovered task says it too.
  await page.keyboard.press('l');  // labels off: the colour checks read node centres
  await centre(page, shortest);
  const pos = await page.evaluate((id) => window.explorer.screenPosition(id), shortest);
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + pos.x, box.y + pos.y);
  const tip = page.locator('#hover');
  await tip.waitFor({ state: 'visible' });
  const shortText = `${Number(want.get(shortest)).toLocaleString('en-US', { maximumFractionDigits: 3 })} \u00b5s`;
  assert.ok((await tip.textContent()).includes(shortText), `tooltip: ${await tip.textContent()}`);
  await page.mouse.move(box.x + 2, box.y + box.height - 2);

  // Colour by duration: the option exists, the ends of the scale are where they belong, the
  // legend shows the bar; `t` toggles back to the core-type colouring and on again.
  const options = await page.$$eval('#color-by option', (os) => os.map((o) => o.value));
  assert.ok(options.includes('duration'), `colourings: ${options}`);
  const before = await colourAt(page, longest);
  await page.selectOption('#color-by', 'duration');
  assert.equal(await page.evaluate(() => window.explorer.colorBy()), 'duration');
  near(await colourAt(page, longest), LONGEST, `longest task ${longest}`);
  near(await colourAt(page, shortest), SHORTEST, `shortest task ${shortest}`);
  await page.locator('#legend .duration-bar').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#legend'), /duration/);
  await page.keyboard.press('l');
  if (shot) {
    await page.keyboard.press('f');
    await page.waitForTimeout(400);  // still: a sharp frame, not the moving one
    await screenshot(page, shot);
  }
  await page.keyboard.press('t');
  assert.equal(await page.evaluate(() => window.explorer.colorBy()), 'core');
  await page.keyboard.press('l');
  near(await colourAt(page, longest), before, 'core colouring again');
  await page.keyboard.press('t');
  assert.equal(await page.evaluate(() => window.explorer.colorBy()), 'duration');
  await page.keyboard.press('l');
}

// The ids of the shortest and longest timed tasks (ties: the first).
function ends(want) {
  let shortest = null, longest = null;
  for (const [id, v] of want) {
    if (shortest === null || v < want.get(shortest)) shortest = id;
    if (longest === null || v > want.get(longest)) longest = id;
  }
  return { shortest, longest };
}

describe('Explorer page with timing records', { skip }, () => {
  const session = browserSession(before, after);

  test('small timing capture (dep_probe_spmd)', async () => {
    // A copy of the case (the viewer reads the sidecar beside deps.json).
    const src = path.join(sourceDir, 'data', 'timing_viewer', 'dep_probe_spmd');
    const dir = path.join(session.dir, 'dep_probe_spmd');
    run('mkdir', ['-p', dir]);
    for (const f of readdirSync(src)) if (f.endsWith('.json')) copyFileSync(path.join(src, f), path.join(dir, f));
    const html = path.join(dir, 'explorer.html');
    run(tools.viewer, [path.join(dir, 'deps.json'), '--format', 'html', '--layout', 'layered', '-o', html]);
    const want = expectedDurations(path.join(dir, 'chip_swimlane_records.json'));
    assert.ok(want.size > 20, `${want.size} timed tasks`);
    const { page, errors } = await openPage(session.browser, html, { waitFor: READY });
    await checkTimings(page, want, { ...ends(want), shot: 'explorer_timing_small' });
    // The sidecar-only id (5, 7) is a node of its own with its duration; an alloc task
    // without records has none.
    assert.ok(await page.evaluate(() => window.explorer.duration('21474836487')) > 0);
    assert.equal(await page.evaluate(() => window.explorer.duration('4294967296')), null);
    await page.evaluate((id) => window.explorer.selectTask(id), ends(want).longest);
    await page.waitForTimeout(400);
    await screenshot(page, 'explorer_timing_small_selected');
    // The timeline: a lane per core of the records, linked to the graph both ways.
    assert.equal(await page.evaluate(() => window.explorer.toggleTimeline(true)), true);
    const lanes = await page.evaluate(() => window.explorer.timelineLanes());
    const doc = JSON.parse(readFileSync(path.join(dir, 'chip_swimlane_records.json'), 'utf8'));
    const cores = new Set(doc.aicore_tasks.map((r) => r[0]));
    assert.equal(lanes.length, cores.size, JSON.stringify(lanes));
    assert.ok(lanes[0].startsWith('aic '), lanes[0]);
    const target = ends(want).shortest;
    const rects = await page.evaluate((id) => window.explorer.timelineRuns(id), target);
    assert.ok(rects.length >= 1, 'the task has runs');
    const box = await page.$eval('#timeline-canvas', (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top }; });
    const r0 = rects[0];
    await page.mouse.click(box.x + (r0.x0 + r0.x1) / 2, box.y + (r0.y0 + r0.y1) / 2);
    assert.equal(await page.evaluate(() => window.explorer.selectedTask()), target,
      'a click on a run selects its task');
    await page.waitForTimeout(300);
    await screenshot(page, 'explorer_timeline_small');
    // The observed critical path is the one `depgraph critical-path` reports, marked in the
    // graph; `o` toggles it.
    const observed = observedPathOf(dir);
    assert.ok(observed.length >= 3, `observed path ${observed}`);
    assert.deepEqual(await page.evaluate(() => window.explorer.observedPath()), observed);
    await page.keyboard.press('o');
    assert.deepEqual(new Set(await page.evaluate(() => window.explorer.highlighted())), new Set(observed));
    assert.match(await page.textContent('#status'), /observed critical path: \d+ tasks/);
    // Idle-while-ready stretches: here one, on the AIC core while the MIX task waited; a click
    // on it selects that task.
    const idle = await page.evaluate(() => window.explorer.timelineIdle());
    assert.ok(idle.length >= 1, JSON.stringify(idle));
    checkIdleStretches(idle, doc, JSON.parse(readFileSync(path.join(dir, 'deps.json'), 'utf8')));
    await screenshot(page, 'explorer_timeline_observed_small');
    const lane = lanes.indexOf(idle[0].lane);
    const at = await page.evaluate(([s, e]) => window.explorer.timelineX((s + e) / 2), [idle[0].start, idle[0].end]);
    const top = await page.evaluate((l) => window.explorer.timelineY(l), lane);
    await page.mouse.click(box.x + at, box.y + top + 8);
    assert.equal(await page.evaluate(() => window.explorer.selectedTask()), idle[0].waiting,
      'a click on an idle stretch selects the task that waited');
    assert.match(await page.textContent('#status'), /idle for .* while .* was ready/);
    await page.keyboard.press('o');
    assert.deepEqual(await page.evaluate(() => window.explorer.highlighted()), []);
    assertNoPageErrors(errors);
    await page.context().close();

    // Without the records the page has no duration colouring, and `t` says why.
    const plain = path.join(session.dir, 'plain.html');
    run(tools.viewer, [path.join(sourceDir, 'data', 'real', 'dep_probe', 'default', 'deps.json'),
      '--format', 'html', '--layout', 'layered', '-o', plain]);
    const second = await openPage(session.browser, plain, { waitFor: READY });
    const options = await second.page.$$eval('#color-by option', (os) => os.map((o) => o.value));
    assert.ok(!options.includes('duration'), `colourings: ${options}`);
    await second.page.keyboard.press('t');
    assert.match(await second.page.textContent('#status'), /no timings/);
    assert.equal(await second.page.evaluate(() => window.explorer.duration('1')), null);
    assertNoPageErrors(second.errors);
    await second.page.context().close();
  });

  test('generated graph with synthetic records (65536 decode tasks)', async () => {
    // In a folder of its own: critical-path reads every rank folder under the one it is given.
    const dir = path.join(session.dir, 'generated');
    run('mkdir', ['-p', dir]);
    const deps = path.join(dir, 'deps.json');
    const records = path.join(dir, 'chip_swimlane_records.json');
    run(tools.genGraph, ['--shape', 'decode', '--tasks', '65536', '--seed', '1', '-o', deps,
      '--timing-records', '-q']);
    const html = path.join(session.dir, 'explorer_timing_65536.html');
    run(tools.viewer, [deps, '--format', 'html', '-o', html]);
    const want = expectedDurations(records);
    assert.ok(want.size > 60000, `${want.size} timed tasks`);
    const { page, errors } = await openPage(session.browser, html, { waitFor: READY });
    await page.selectOption('#color-by', 'duration');
    await page.waitForTimeout(400);
    await screenshot(page, 'explorer_timing_65536');
    await page.selectOption('#color-by', 'core');
    const { shortest, longest } = ends(want);
    await checkTimings(page, new Map([[shortest, want.get(shortest)], [longest, want.get(longest)]]),
      { shortest, longest, shot: null });
    await page.evaluate((i) => window.explorer.selectTask(i), longest);
    await page.waitForTimeout(400);
    await screenshot(page, 'explorer_timing_65536_zoomed');
    // A sample of every thousandth task matches the records.
    const sample = [...want.keys()].filter((_, k) => k % 1000 === 0);
    const got = await page.evaluate((ids) => ids.map((id) => window.explorer.duration(id)), sample);
    sample.forEach((id, k) => assert.ok(Math.abs(got[k] - want.get(id)) < 0.0015, `duration of ${id}`));
    // The timeline at model scale: 24 AIC + 48 AIV lanes, the selection's runs in view.
    const started = Date.now();
    await page.keyboard.press('w');
    assert.equal((await page.evaluate(() => window.explorer.timelineLanes())).length, 72);
    console.log(`timeline of ${want.size} tasks opened in ${Date.now() - started} ms`);
    const runs = await page.evaluate((id) => window.explorer.timelineRuns(id), longest);
    assert.ok(runs.length >= 1);
    await page.waitForTimeout(300);
    await screenshot(page, 'explorer_timeline_65536');
    // The observed critical path at model scale is critical-path's, drawn on both views.
    const observed = observedPathOf(dir);
    assert.ok(observed.length > 1000, `${observed.length} steps`);
    const shown = await page.evaluate(() => window.explorer.observedPath());
    assert.equal(shown.length, observed.length);
    assert.deepEqual(shown, observed);
    await page.keyboard.press('o');
    assert.match(await page.textContent('#status'), /observed critical path/);
    await page.waitForTimeout(300);
    await screenshot(page, 'explorer_timeline_observed_65536');
    assertNoPageErrors(errors);
    await page.context().close();
  });
});
