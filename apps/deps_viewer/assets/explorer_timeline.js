'use strict';
// The explorer's timeline: what really ran, beside the graph ("compare the graph, then the
// swimlane"). A lane per core, every recorded run of a task (the perf sidecar's records, `runs`
// in the page data) on a time axis with its own zoom and pan; linked to the graph both ways:
// a click on a run selects its task, the selected task's runs are outlined, with arrows from
// its predecessors' runs and to its successors', and a highlight (a path, the critical path)
// outlines the runs of the tasks it marks. Two facts of the run are drawn too: the observed
// critical path (what gated each start, walked back from the last task, as `depgraph
// critical-path` finds it), a line through its runs, and the idle stretches of cores while work
// of their type was ready (hatched; the "saturated ring" case). The runs are parsed when it
// first opens, so they cost nothing before. Model: explorer_data.js.

const TL_LANE = 16, TL_LABEL = 64, TL_AXIS = 18;

/**
 * Creates the timeline over #timeline, or null when the page has no runs. `st` is the shared
 * state (selection, colours, highlights), `ui` gives select(i, centre). Returns { toggle(),
 * isOpen(), reveal(i), draw(), runsOf(i), clickAt(x, y) }.
 */
function createTimeline(g, st, ui) {
  if (!g.data.timeline) return null;
  const $ = (id) => document.getElementById(id);
  const box = $('timeline'), canvas = $('timeline-canvas'), note = $('timeline-note');
  let n = 0, node, lane, t0, t1, lanes = [], tmin = 0, tmax = 0;
  const runsOfNode = new Map();
  // The observed path: per step node (-1: not in the graph), stall kind (0 front gap, 1 data
  // wait, 2 core wait) and stall (µs); its totals; or why there is none.
  let cp = null, cpNote = '';
  // Idle stretches with ready work: lane, start and end (µs), the waiting task's node.
  let idleLane, idle0, idle1, idleNode, nIdle = 0, showIdle = true, idleSum = null;
  // The runs, parsed when the timeline first opens (#explorer-runs: per task node, count, then
  // core, start and length in ns per run). Lanes: AIC cores first, then the others, by id.
  function load() {
    const d = JSON.parse($('explorer-runs').textContent);
    const r = d.runs;
    for (let p = 0; p < r.length; p += 2 + 3 * r[p + 1]) n += r[p + 1];
    node = new Uint32Array(n); lane = new Uint32Array(n);
    t0 = new Float64Array(n); t1 = new Float64Array(n);
    const core = new Int32Array(n);
    for (let p = 0, k = 0; p < r.length; p += 2 + 3 * r[p + 1]) {
      const list = [];
      for (let q = 0; q < r[p + 1]; q++, k++) {
        node[k] = r[p];
        core[k] = r[p + 2 + 3 * q];
        t0[k] = r[p + 3 + 3 * q] / 1000;
        t1[k] = t0[k] + r[p + 4 + 3 * q] / 1000;
        list.push(k);
      }
      runsOfNode.set(r[p], list);
    }
    const typeOf = (c) => d.ctypes[d.ctype[c]] || '?';
    const cores = [...new Set(core)].sort((a, b) =>
      (typeOf(a) === 'aic' ? 0 : 1) - (typeOf(b) === 'aic' ? 0 : 1) || a - b);
    lanes = cores.map((c) => ({ core: c, type: typeOf(c) }));
    const laneOf = new Map(cores.map((c, i) => [c, i]));
    tmin = Infinity; tmax = -Infinity;
    for (let k = 0; k < n; k++) {
      lane[k] = laneOf.get(core[k]);
      tmin = Math.min(tmin, t0[k]);
      tmax = Math.max(tmax, t1[k]);
    }
    if (!n) tmin = tmax = 0;
    if (d.cp) {
      const steps = [];
      for (let p = 0; p < d.cp.length; p += 3) {
        steps.push({ node: d.cp[p], kind: d.cp[p + 1], stall: d.cp[p + 2] / 1000 });
      }
      cp = { steps, makespan: d.cpsum[0] / 1000, compute: d.cpsum[1] / 1000, stall: d.cpsum[2] / 1000 };
      // Per step its first and last run (-1 when the task is no node), for drawing.
      for (const step of steps) {
        const rs = step.node >= 0 ? runsOfNode.get(step.node) : null;
        step.first = rs ? rs.reduce((a, k) => (t0[k] < t0[a] ? k : a), rs[0]) : -1;
        step.last = rs ? rs.reduce((a, k) => (t1[k] > t1[a] ? k : a), rs[0]) : -1;
      }
    } else {
      cpNote = d.cpnote || 'the page has no observed critical path';
    }
    const id = d.idle || [];
    nIdle = id.length / 4;
    idleLane = new Int32Array(nIdle); idleNode = new Int32Array(nIdle);
    idle0 = new Float64Array(nIdle); idle1 = new Float64Array(nIdle);
    for (let k = 0; k < nIdle; k++) {
      const l = laneOf.get(id[4 * k]);
      idleLane[k] = l === undefined ? -1 : l;
      idle0[k] = id[4 * k + 1] / 1000;
      idle1[k] = idle0[k] + id[4 * k + 2] / 1000;
      idleNode[k] = id[4 * k + 3];
    }
    if (d.idlesum) {
      const [count, ns, floor, skipped, skippedNs] = d.idlesum;
      idleSum = { count, us: ns / 1000, floor: floor / 1000, skipped, skippedUs: skippedNs / 1000 };
    }
  }
  // Diagonal red hatching for idle-with-ready-work.
  let hatch = null;
  function hatchPattern() {
    if (hatch) return hatch;
    const t = document.createElement('canvas');
    t.width = t.height = 6;
    const c = t.getContext('2d');
    c.fillStyle = 'rgba(217,48,37,0.18)';
    c.fillRect(0, 0, 6, 6);
    c.strokeStyle = 'rgba(217,48,37,0.75)';
    c.lineWidth = 1.2;
    c.beginPath();
    c.moveTo(0, 6); c.lineTo(6, 0);
    c.moveTo(-1, 1); c.lineTo(1, -1);
    c.moveTo(5, 7); c.lineTo(7, 5);
    c.stroke();
    hatch = ctx.createPattern(t, 'repeat');
    return hatch;
  }
  const ctx = canvas.getContext('2d');
  const view = { s: 1, tx: 0, ty: 0 };  // x = TL_LABEL + (t * s + tx); y = TL_AXIS + lane * TL_LANE + ty
  let W = 1, H = 1, fitted = false;

  function resize() {
    const r = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    W = Math.max(1, r.width);
    H = Math.max(1, r.height);
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }
  function fit() {
    const span = Math.max(1e-3, tmax - tmin);
    view.s = (W - TL_LABEL - 12) / span;
    view.tx = -tmin * view.s + 4;
    view.ty = 0;
  }
  const X = (t) => TL_LABEL + t * view.s + view.tx;
  // With the observed path on, a row of its own under the axis: the lanes start lower.
  const pathRow = () => st.hlKind === 'observed' && cp !== null;
  const laneTop = () => TL_AXIS + (pathRow() ? TL_LANE + 4 : 0);
  const Y = (l) => laneTop() + l * TL_LANE + view.ty;
  const runRect = (k) => ({ x0: X(t0[k]), x1: Math.max(X(t0[k]) + 1, X(t1[k])), y0: Y(lane[k]) + 2, y1: Y(lane[k]) + TL_LANE - 2 });

  function draw() {
    if (box.hidden) return;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    const tA = (0 - view.tx) / view.s, tB = (W - TL_LABEL - view.tx) / view.s;
    // Idle stretches of cores while ready work of their type waited, under the runs.
    if (showIdle && nIdle) {
      ctx.fillStyle = hatchPattern();
      for (let k = 0; k < nIdle; k++) {
        if (idleLane[k] < 0 || idle1[k] < tA || idle0[k] > tB) continue;
        const y = Y(idleLane[k]);
        if (y + TL_LANE < laneTop() || y > H) continue;
        const x0 = X(idle0[k]);
        ctx.fillRect(x0, y + 1, Math.max(1, X(idle1[k]) - x0), TL_LANE - 2);
      }
    }
    // Runs, by colour; those of the highlighted tasks (a path, the critical path) outlined.
    const pal = st.palette, col = st.colour, hl = st.nodeHl;
    for (let k = 0; k < n; k++) {
      if (t1[k] < tA || t0[k] > tB) continue;
      const r = runRect(k);
      if (r.y1 < laneTop() || r.y0 > H) continue;
      ctx.globalAlpha = hl && !hl[node[k]] ? 0.3 : 1;
      ctx.fillStyle = pal[col[node[k]]] || '#9ab';
      ctx.fillRect(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
      if (hl && hl[node[k]] && r.x1 - r.x0 >= 3) {  // narrower: the fill says it (no solid wall)
        ctx.strokeStyle = HL_COLOURS[hl[node[k]]];
        ctx.lineWidth = 1.5;
        ctx.strokeRect(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
      }
    }
    ctx.globalAlpha = 1;
    if (pathRow()) drawObservedPath(tA, tB);
    // The selection: its runs in red, arrows from its predecessors' last runs and to its
    // successors' first runs (the dependencies, as the graph has them).
    const sel = st.selected;
    if (sel >= 0 && runsOfNode.has(sel)) {
      const mine = runsOfNode.get(sel);
      const first = mine.reduce((a, k) => (t0[k] < t0[a] ? k : a), mine[0]);
      const last = mine.reduce((a, k) => (t1[k] > t1[a] ? k : a), mine[0]);
      const arrow = (ka, kb, colour) => {
        const a = runRect(ka), b = runRect(kb);
        const xa = a.x1, ya = (a.y0 + a.y1) / 2, xb = b.x0, yb = (b.y0 + b.y1) / 2;
        ctx.strokeStyle = colour;
        ctx.lineWidth = 1.3;
        ctx.beginPath();
        ctx.moveTo(xa, ya);
        ctx.lineTo(xb, yb);
        const ang = Math.atan2(yb - ya, xb - xa);
        ctx.moveTo(xb - 7 * Math.cos(ang - 0.4), yb - 7 * Math.sin(ang - 0.4));
        ctx.lineTo(xb, yb);
        ctx.lineTo(xb - 7 * Math.cos(ang + 0.4), yb - 7 * Math.sin(ang + 0.4));
        ctx.stroke();
      };
      const nb = st.neighbours || { preds: [], succs: [] };
      for (const p of nb.preds) {
        const rs = runsOfNode.get(p);
        if (rs) arrow(rs.reduce((a, k) => (t1[k] > t1[a] ? k : a), rs[0]), first, NEIGHBOUR_COLOURS[0]);
      }
      for (const q of nb.succs) {
        const rs = runsOfNode.get(q);
        if (rs) arrow(last, rs.reduce((a, k) => (t0[k] < t0[a] ? k : a), rs[0]), NEIGHBOUR_COLOURS[1]);
      }
      ctx.strokeStyle = '#d93025';
      ctx.lineWidth = 2.5;
      for (const k of mine) {
        const r = runRect(k);
        ctx.strokeRect(r.x0 - 1, r.y0 - 1, r.x1 - r.x0 + 2, r.y1 - r.y0 + 2);
      }
    }
    // Lane labels and the time axis on top.
    ctx.fillStyle = '#f4f6f9';
    ctx.fillRect(0, 0, TL_LABEL, H);
    ctx.fillRect(0, 0, W, TL_AXIS);
    if (pathRow()) drawPathRow(tA, tB);
    ctx.fillStyle = '#333';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    lanes.forEach((l, i) => {
      const y = Y(i) + TL_LANE / 2;
      if (y > laneTop() && y < H) ctx.fillText(l.type.toUpperCase() + ' ' + l.core, 4, y);
    });
    const step = niceStep((tB - tA) / Math.max(2, (W - TL_LABEL) / 110));
    for (let t = Math.ceil(tA / step) * step; t <= tB; t += step) {
      const x = X(t);
      ctx.fillRect(x, TL_AXIS - 4, 1, 4);
      ctx.fillText(formatUs(Math.abs(t) < step * 1e-6 ? 0 : t), x + 2, TL_AXIS / 2);
    }
  }
  // The observed path as one line from run to run: a step's first run is entered from the
  // previous step's last; solid where it waited for data, dashed where for its core. Drawn
  // when at most PATH_LINES_MAX steps are in view (farther out the path row says it all).
  const PATH_LINES_MAX = 1500;
  function drawObservedPath(tA, tB) {
    let visible = 0;
    for (const step of cp.steps) {
      if (step.first >= 0 && t1[step.last] >= tA && t0[step.first] <= tB) visible++;
    }
    if (visible > PATH_LINES_MAX) return;
    let prev = -1;
    ctx.lineWidth = 2;
    for (const step of cp.steps) {
      const rs = step.first >= 0 ? runsOfNode.get(step.node) : null;
      if (!rs) { prev = -1; continue; }
      const first = step.first, last = step.last;
      if (prev >= 0 && t1[prev] <= tB && t0[first] >= tA) {
        const a = runRect(prev), b = runRect(first);
        ctx.strokeStyle = HL_COLOURS[5];
        ctx.setLineDash(step.kind === 2 ? [4, 3] : []);
        ctx.beginPath();
        ctx.moveTo(a.x1, (a.y0 + a.y1) / 2);
        ctx.lineTo(b.x0, (b.y0 + b.y1) / 2);
        ctx.stroke();
      }
      ctx.setLineDash([]);
      ctx.strokeStyle = HL_COLOURS[5];
      for (const k of rs) {
        const r = runRect(k);
        ctx.strokeRect(r.x0 - 1, r.y0 - 1, r.x1 - r.x0 + 2, r.y1 - r.y0 + 2);
      }
      prev = last;
    }
    ctx.setLineDash([]);
  }
  // The path row: per step its stall (grey: front gap, amber: data wait, orange: core wait)
  // then its compute (magenta), on the same time axis.
  const STALL_COLOURS = ['#9aa0a6', '#f4b400', '#e8710a'];
  function drawPathRow(tA, tB) {
    const y = TL_AXIS + 2, h = TL_LANE - 2;
    ctx.fillStyle = '#fff';
    ctx.fillRect(TL_LABEL, TL_AXIS, W - TL_LABEL, TL_LANE + 4);
    for (const step of cp.steps) {
      if (step.first < 0) continue;
      const s0 = t0[step.first], s1 = t1[step.last];
      if (s1 < tA || s0 - step.stall > tB) continue;
      if (step.stall > 0) {
        ctx.fillStyle = STALL_COLOURS[step.kind];
        const x = X(s0 - step.stall);
        ctx.fillRect(x, y + 3, Math.max(1, X(s0) - x), h - 6);
      }
      ctx.fillStyle = HL_COLOURS[5];
      ctx.fillRect(X(s0), y, Math.max(1, X(s1) - X(s0)), h);
    }
    ctx.fillStyle = '#f4f6f9';
    ctx.fillRect(0, TL_AXIS, TL_LABEL, TL_LANE + 4);
    ctx.fillStyle = '#c2185b';
    ctx.fillText('path', 4, y + h / 2);
    ctx.fillStyle = '#aab';
    ctx.fillRect(0, TL_AXIS + TL_LANE + 3, W, 1);
  }
  function niceStep(raw) {
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-6))));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
    return 10 * p;
  }

  function runAt(x, y) {
    for (let k = 0; k < n; k++) {
      const r = runRect(k);
      if (x >= r.x0 - 1 && x <= r.x1 + 1 && y >= r.y0 && y <= r.y1) return k;
    }
    return -1;
  }
  function idleAt(x, y) {
    if (!showIdle) return -1;
    for (let k = 0; k < nIdle; k++) {
      if (idleLane[k] < 0) continue;
      const y0 = Y(idleLane[k]), x0 = X(idle0[k]), x1 = Math.max(x0 + 1, X(idle1[k]));
      if (x >= x0 - 1 && x <= x1 + 1 && y >= y0 && y <= y0 + TL_LANE) return k;
    }
    return -1;
  }
  // Mouse: wheel zooms time at the pointer (shift: scroll lanes), drag pans, a click selects.
  let drag = null;
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    if (e.shiftKey) {
      view.ty = Math.min(0, view.ty - e.deltaY);
    } else {
      const x = e.clientX - r.left - TL_LABEL, f = Math.exp(-e.deltaY * 0.0015);
      view.tx = x - (x - view.tx) * f;
      view.s *= f;
    }
    draw();
  }, { passive: false });
  canvas.addEventListener('mousedown', (e) => { drag = { x: e.clientX, y: e.clientY, moved: false }; });
  window.addEventListener('mousemove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true;
    view.tx += dx;
    view.ty = Math.min(0, view.ty + dy);
    drag.x = e.clientX;
    drag.y = e.clientY;
    draw();
  });
  window.addEventListener('mouseup', (e) => {
    if (!drag) return;
    const clicked = !drag.moved;
    drag = null;
    if (!clicked || e.target !== canvas) return;
    const r = canvas.getBoundingClientRect();
    clickAt(e.clientX - r.left, e.clientY - r.top);
  });
  // A click on a run selects its task; on an idle stretch, the task that was ready (and says so).
  function clickAt(x, y) {
    const k = runAt(x, y);
    if (k >= 0) {
      ui.select(node[k], true);
      return g.ids[node[k]];
    }
    const j = idleAt(x, y);
    if (j < 0 || idleNode[j] < 0) return null;
    ui.select(idleNode[j], true);
    const l = lanes[idleLane[j]];
    ui.note(l.type.toUpperCase() + ' ' + l.core + ' idle for ' + formatUs(idle1[j] - idle0[j]) +
      ' while ' + displayId(g, idleNode[j]) + ' was ready (selected)');
    return g.ids[idleNode[j]];
  }
  /** Brings node i's first run into view (keeping the zoom). */
  function reveal(i) {
    const rs = runsOfNode.get(i);
    if (!rs || box.hidden) return;
    const k = rs.reduce((a, j) => (t0[j] < t0[a] ? j : a), rs[0]);
    const x = X(t0[k]);
    if (x < TL_LABEL + 20 || x > W - 40) view.tx += (TL_LABEL + (W - TL_LABEL) / 3) - x;
    const y = Y(lane[k]);
    if (y < laneTop() || y > H - TL_LANE) view.ty = Math.min(0, view.ty + (laneTop() + H / 3) - y);
  }
  function toggle(on) {
    box.hidden = on === undefined ? !box.hidden : !on;
    document.body.classList.toggle('timeline-open', !box.hidden);
    if (!box.hidden) {
      resize();
      if (!fitted) { load(); fit(); fitted = true; }
      if (st.selected >= 0) reveal(st.selected);
      note.textContent = lanes.length + ' cores, ' + n.toLocaleString('en-US') + ' runs, ' +
        formatUs(tmax - tmin) + '; ' + idleText() +
        '; wheel: zoom time, shift+wheel or drag: move, click: select';
      note.title = note.textContent;
      draw();
    }
    return !box.hidden;
  }
  window.addEventListener('resize', () => { if (!box.hidden) { resize(); draw(); } });
  $('timeline-close').addEventListener('click', () => toggle(false));
  // "idle with ready work: N stretches, T (hatched)", with what the latency floor left out.
  function idleText() {
    if (!idleSum) return 'no idle-with-ready-work analysis';
    const fmt = (k) => k.toLocaleString('en-US');
    return 'idle with ready work (hatched): ' + fmt(idleSum.count) +
      (idleSum.count === 1 ? ' stretch, ' : ' stretches, ') +
      formatUs(idleSum.us) + (nIdle < idleSum.count ? ' (the ' + fmt(nIdle) + ' longest drawn)' : '') +
      (idleSum.skipped ? '; ' + fmt(idleSum.skipped) + ' of \u2264 ' + formatUs(idleSum.floor) +
        ' (dispatch latency, ' + formatUs(idleSum.skippedUs) + ') not marked' : '');
  }
  /** The observed critical path ({ steps, makespan, compute, stall } in µs) or { note }. */
  function observedPath() {
    toggle(true);
    return cp || { note: cpNote };
  }
  /** One line on the observed path: steps, makespan, compute and stall shares by kind. */
  function observedSummary() {
    const byKind = [0, 0, 0];
    for (const s of cp.steps) byKind[s.kind] += s.stall;
    const pct = (us) => (cp.makespan > 0 ? ' (' + Math.round(100 * us / cp.makespan) + '%)' : '');
    const stalls = ['front gap', 'data wait', 'core wait']
      .map((name, k) => (byKind[k] > 0 ? name + ' ' + formatUs(byKind[k]) : '')).filter((x) => x);
    return 'observed critical path: ' + cp.steps.length.toLocaleString('en-US') + ' tasks over ' +
      formatUs(cp.makespan) + '; compute ' + formatUs(cp.compute) + pct(cp.compute) + ', stalls ' +
      formatUs(cp.stall) + pct(cp.stall) + (stalls.length ? ' (' + stalls.join(', ') + ')' : '') +
      '; timeline: a path row, and lines through the runs when zoomed in';
  }
  function toggleIdle(on) {
    showIdle = on === undefined ? !showIdle : !!on;
    $('idle-button').classList.toggle('on', showIdle);
    draw();
    return showIdle;
  }
  $('idle-button').addEventListener('click', () => toggleIdle());
  return {
    toggle, draw, reveal, clickAt, observedPath, observedSummary, toggleIdle,
    isOpen: () => !box.hidden,
    /** The canvas x (CSS pixels) of time `us`, and the top y of lane `l`. */
    xOf: (us) => X(us),
    yOf: (l) => Y(l),
    /** The idle stretches drawn: [{ lane, start, end, waiting }] (µs; waiting: a raw id). */
    idleStretches: () => (showIdle ? [...Array(nIdle).keys()].filter((k) => idleLane[k] >= 0)
      .map((k) => ({ lane: lanes[idleLane[k]].type + ' ' + lanes[idleLane[k]].core,
        start: idle0[k], end: idle1[k], waiting: idleNode[k] >= 0 ? g.ids[idleNode[k]] : null })) : []),
    /** The CSS-pixel rectangles (in the timeline canvas) of node i's runs. */
    runsOf: (i) => (runsOfNode.get(i) || []).map((k) => runRect(k)),
    lanes: () => lanes.map((l) => l.type + ' ' + l.core),
  };
}
