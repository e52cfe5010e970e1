'use strict';
// The explorer's timeline: what really ran, beside the graph ("compare the graph, then the
// swimlane"). A lane per core, every recorded run of a task (the perf sidecar's records, `runs`
// in the page data) on a time axis with its own zoom and pan; linked to the graph both ways:
// a click on a run selects its task, the selected task's runs are outlined, with arrows from
// its predecessors' runs and to its successors', and a highlight (a path, the critical path)
// outlines the runs of the tasks it marks. The runs are parsed when it first opens, so they
// cost nothing before. Model: explorer_data.js.

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
  const Y = (l) => TL_AXIS + l * TL_LANE + view.ty;
  const runRect = (k) => ({ x0: X(t0[k]), x1: Math.max(X(t0[k]) + 1, X(t1[k])), y0: Y(lane[k]) + 2, y1: Y(lane[k]) + TL_LANE - 2 });

  function draw() {
    if (box.hidden) return;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    const tA = (0 - view.tx) / view.s, tB = (W - TL_LABEL - view.tx) / view.s;
    // Runs, by colour; those of the highlighted tasks (a path, the critical path) outlined.
    const pal = st.palette, col = st.colour, hl = st.nodeHl;
    for (let k = 0; k < n; k++) {
      if (t1[k] < tA || t0[k] > tB) continue;
      const r = runRect(k);
      if (r.y1 < TL_AXIS || r.y0 > H) continue;
      ctx.globalAlpha = hl && !hl[node[k]] ? 0.3 : 1;
      ctx.fillStyle = pal[col[node[k]]] || '#9ab';
      ctx.fillRect(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
      if (hl && hl[node[k]]) {
        ctx.strokeStyle = HL_COLOURS[hl[node[k]]];
        ctx.lineWidth = 1.5;
        ctx.strokeRect(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
      }
    }
    ctx.globalAlpha = 1;
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
    ctx.fillStyle = '#333';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    lanes.forEach((l, i) => {
      const y = Y(i) + TL_LANE / 2;
      if (y > TL_AXIS && y < H) ctx.fillText(l.type.toUpperCase() + ' ' + l.core, 4, y);
    });
    const step = niceStep((tB - tA) / Math.max(2, (W - TL_LABEL) / 110));
    for (let t = Math.ceil(tA / step) * step; t <= tB; t += step) {
      const x = X(t);
      ctx.fillRect(x, TL_AXIS - 4, 1, 4);
      ctx.fillText(formatUs(Math.abs(t) < step * 1e-6 ? 0 : t), x + 2, TL_AXIS / 2);
    }
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
  function clickAt(x, y) {
    const k = runAt(x, y);
    if (k >= 0) ui.select(node[k], true);
    return k >= 0 ? g.ids[node[k]] : null;
  }
  /** Brings node i's first run into view (keeping the zoom). */
  function reveal(i) {
    const rs = runsOfNode.get(i);
    if (!rs || box.hidden) return;
    const k = rs.reduce((a, j) => (t0[j] < t0[a] ? j : a), rs[0]);
    const x = X(t0[k]);
    if (x < TL_LABEL + 20 || x > W - 40) view.tx += (TL_LABEL + (W - TL_LABEL) / 3) - x;
    const y = Y(lane[k]);
    if (y < TL_AXIS || y > H - TL_LANE) view.ty = Math.min(0, view.ty + (TL_AXIS + H / 3) - y);
  }
  function toggle(on) {
    box.hidden = on === undefined ? !box.hidden : !on;
    document.body.classList.toggle('timeline-open', !box.hidden);
    if (!box.hidden) {
      resize();
      if (!fitted) { load(); fit(); fitted = true; }
      if (st.selected >= 0) reveal(st.selected);
      note.textContent = lanes.length + ' cores, ' + n.toLocaleString('en-US') + ' runs, ' +
        formatUs(tmax - tmin) + '; wheel: zoom time, shift+wheel or drag: move, click: select';
      draw();
    }
    return !box.hidden;
  }
  window.addEventListener('resize', () => { if (!box.hidden) { resize(); draw(); } });
  $('timeline-close').addEventListener('click', () => toggle(false));
  return {
    toggle, draw, reveal, clickAt, isOpen: () => !box.hidden,
    /** The CSS-pixel rectangles (in the timeline canvas) of node i's runs. */
    runsOf: (i) => (runsOfNode.get(i) || []).map((k) => runRect(k)),
    lanes: () => lanes.map((l) => l.type + ' ' + l.core),
  };
}
