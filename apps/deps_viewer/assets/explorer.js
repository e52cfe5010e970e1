'use strict';
// The explorer page's user interface: header controls, task panel, highlights, mouse and
// keys, URL hash, and the `window.explorer` API of docs/explorer.md.
// Model: explorer_data.js; drawing: explorer_render.js; search: explorer_search.js; the path
// question: explorer_path.js; the structure outline: explorer_groups.js.

(function () {
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  const fmt = (n) => Number(n).toLocaleString('en-US');

  const api = { ready: false, firstPaintMs: null };
  const STRUCTURE_OPEN_MIN_NODES = 1000;
  const START_NOTE = 'too large to read whole: this is its start, at a zoom where labels read; f fits all of it';
  window.explorer = api;

  const timings = { scriptStart: performance.now() };
  api.timings = timings;
  const text = $('explorer-data').textContent;
  const parsed = JSON.parse(text);
  timings.parsed = performance.now();
  const g = buildModel(parsed, () => JSON.parse($('explorer-details').textContent));
  timings.model = performance.now();
  const st = {
    mode: MODES.includes(g.data.mode) ? g.data.mode : 'full', mask: null,
    colourBy: 'core', palette: [], colour: new Uint16Array(g.n),
    nodeHl: null, pairHl: null, hlKind: null, hlDepth: 0,
    selected: -1, second: -1, labels: true, note: '', matchHl: null,
  };
  // The grouping (the outline) and its boxes on the canvas, which the renderer draws.
  const G = buildGroups(g);
  const units = createUnits(g, G);
  st.units = units;
  const canvas = $('view');
  const R = createRenderer(g, canvas, $('minimap'), st);
  timings.renderer = performance.now();

  // ---- header, modes, colours, legend ----
  function edgeCount() {
    let c = 0;
    for (let p = 0; p < g.m; p++) c += st.mask[p];
    return c;
  }
  function updateHeader() {
    const shown = edgeCount();
    $('edge-count').textContent = String(shown);
    // The name gives way first (it is also in the tab title); the counts stay whole (the
    // mode is the select's).
    $('title').innerHTML = '<span class="name" title="' + esc(g.name) + '">' + esc(g.name) +
      '</span><span class="sub">' + fmt(g.n) + ' tasks \u00b7 ' + fmt(g.m) + ' pairs' +
      (g.cycle ? ' \u00b7 cycle: no reduction' : '') + '</span>';
    document.title = g.name + ' \u2014 ' + st.mode + ', ' + g.n + ' tasks, ' + shown + ' edges';
  }
  function setMode(mode) {
    if (!MODES.includes(mode)) return false;
    st.mode = mode;
    st.mask = modeMask(g, mode);
    if (units) units.refresh(st.mask);
    $('mode').value = mode;
    updateHeader();
    if (st.hlKind === 'anc' || st.hlKind === 'desc' || st.hlKind === 'both') applyHighlight();
    if (st.selected >= 0) showPanel(st.selected);
    R.invalidate();
    return true;
  }

  function hues(count) {
    const out = [];
    for (let k = 0; k < count; k++) {
      out.push('hsl(' + Math.round((k * 137.508) % 360) + ',' + (62 - (k % 3) * 8) + '%,' +
        (66 - ((k >> 1) % 3) * 7) + '%)');
    }
    return out;
  }
  const MAX_HUES = 48;
  // Duration colouring: a sequential scale from pale yellow (short) to red (long), in
  // DURATION_STEPS steps; tasks without timing records grey.
  const DURATION_ANCHORS = [[255, 244, 196], [253, 211, 138], [252, 163, 93], [242, 107, 67],
    [215, 48, 31]];
  const DURATION_STEPS = 24;
  const NO_TIMING = '#D4D4D4';
  function durationPalette() {
    const out = [];
    for (let k = 0; k < DURATION_STEPS; k++) {
      const t = k / (DURATION_STEPS - 1) * (DURATION_ANCHORS.length - 1);
      const a = DURATION_ANCHORS[Math.floor(t)], b = DURATION_ANCHORS[Math.min(Math.floor(t) + 1,
        DURATION_ANCHORS.length - 1)], f = t - Math.floor(t);
      out.push('rgb(' + a.map((v, c) => Math.round(v + (b[c] - v) * f)).join(',') + ')');
    }
    return out;
  }
  // Colours by duration: linear between the shortest and the longest task, or logarithmic
  // when they differ by more than 20 times. Writes its own legend (a colour bar).
  function durationColours() {
    const col = st.colour, pal = durationPalette().concat([NO_TIMING]);
    let lo = Infinity, hi = 0, timed = 0, minPositive = Infinity;
    for (let i = 0; i < g.n; i++) {
      const v = g.dur[i];
      if (v < 0) continue;
      timed++;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      if (v > 0) minPositive = Math.min(minPositive, v);
    }
    const log = minPositive < Infinity && hi / minPositive > 20;
    const base = log ? minPositive : lo;
    const f = (v) => (log ? Math.log(Math.max(v, minPositive) / base) : v - base);
    const span = timed ? f(hi) : 0;
    for (let i = 0; i < g.n; i++) {
      const v = g.dur[i];
      col[i] = v < 0 ? DURATION_STEPS
        : span > 0 ? Math.min(DURATION_STEPS - 1, Math.floor(f(v) / span * DURATION_STEPS)) : 0;
    }
    st.palette = pal;
    const bar = 'linear-gradient(to right,' + pal.slice(0, DURATION_STEPS).join(',') + ')';
    $('legend').innerHTML = '<div><b>duration</b> <span class="note">' +
      (log ? 'log scale' : 'linear scale') + '</span></div>' +
      (timed ? '<div class="duration-bar" style="background:' + bar + '"></div>' +
        '<div class="duration-ends"><span>' + esc(formatUs(base)) + '</span><span>' +
        esc(formatUs(hi)) + '</span></div>' : '') +
      '<div class="item"><span class="note">' + fmt(timed) + ' timed tasks</span></div>' +
      (timed < g.n ? '<div class="item"><span class="sw" style="background:' + NO_TIMING +
        '"></span>no timing records <span class="note">' + fmt(g.n - timed) + '</span></div>' : '');
  }
  function colourOrder() {
    return g.dur ? ['core', 'kernel', 'ring', 'scope', 'duration'] : ['core', 'kernel', 'ring', 'scope'];
  }
  function computeColours() {
    const col = st.colour, by = st.colourBy, legend = [];
    let pal;
    if (by === 'duration') return durationColours();
    if (by === 'core') {
      pal = ['#66A3FF', '#FFB366', '#66CC99', '#EAEAEA', '#E0E0E0'];
      const names = ['aic', 'aiv', 'mix (aic + aiv)', 'alloc', 'dummy / no kernel'];
      for (let i = 0; i < g.n; i++) {
        col[i] = g.kind[i] === 2 ? 3 : g.kind[i] === 1 ? 4 : g.core[i] ? g.core[i] - 1 : 4;
      }
      pal.forEach((c, k) => legend.push([c, names[k], 0, k]));
    } else if (by === 'kernel') {
      const kn = Math.min(g.names.length, MAX_HUES);
      pal = hues(kn).concat(['#E0E0E0', '#EAEAEA']);
      for (let i = 0; i < g.n; i++) {
        const k = g.kern[i];
        col[i] = k >= 0 ? k % MAX_HUES : g.kind[i] === 2 ? kn + 1 : kn;
      }
      g.names.forEach((name, k) => legend.push([pal[k % MAX_HUES], name, 0, -1, k]));
      legend.push(['#E0E0E0', 'no kernel name', 0, kn], ['#EAEAEA', 'alloc', 0, kn + 1]);
    } else if (by === 'ring') {
      const rg = rings(g), seen = [];
      for (let i = 0; i < g.n; i++) if (!seen.includes(rg[i])) seen.push(rg[i]);
      seen.sort((a, b) => a - b);
      pal = hues(seen.length);
      for (let i = 0; i < g.n; i++) col[i] = seen.indexOf(rg[i]);
      seen.forEach((ring, k) => legend.push([pal[k], 'ring ' + ring, 0, k]));
    } else {
      pal = ['#5B8FF9', '#E8684A', '#EAEAEA'];
      for (let i = 0; i < g.n; i++) col[i] = g.kind[i] === 2 ? 2 : g.manual[i] ? 1 : 0;
      legend.push([pal[0], 'auto scope', 0, 0], [pal[1], 'manual scope', 0, 1],
        [pal[2], 'alloc', 0, 2]);
    }
    st.palette = pal;
    // Counts per legend entry.
    const perColour = new Uint32Array(pal.length), perKernel = new Uint32Array(g.names.length);
    for (let i = 0; i < g.n; i++) {
      perColour[col[i]]++;
      if (g.kern[i] >= 0) perKernel[g.kern[i]]++;
    }
    for (const e of legend) e[2] = e[3] >= 0 ? perColour[e[3]] : perKernel[e[4]];
    let items = legend.filter((e) => e[2] > 0);
    if (by === 'kernel') items.sort((a, b) => b[2] - a[2]);
    const more = items.length - 24;
    items = items.slice(0, 24);
    $('legend').innerHTML = '<div><b>' + esc($('color-by').selectedOptions[0].text) + '</b></div>' +
      items.map((e) => '<div class="item"><span class="sw" style="background:' + e[0] +
        '"></span>' + esc(e[1]) + ' <span class="note">' + fmt(e[2]) + '</span></div>').join('') +
      (more > 0 ? '<div class="note">' + more + ' more' +
        (g.names.length > MAX_HUES ? ' (colours repeat)' : '') + '</div>' : '');
  }
  function setColourBy(by) {
    if (!colourOrder().includes(by)) return false;
    if (by !== 'duration') st.lastColourBy = by;
    st.colourBy = by;
    $('color-by').value = by;
    computeColours();
    R.invalidate();
    return true;
  }
  // Key t: duration colouring on, or back to the colouring before it.
  function toggleDuration() {
    if (!g.dur) return setNote('no timings: this capture has no chip_swimlane_records.json');
    setColourBy(st.colourBy === 'duration' ? st.lastColourBy || 'core' : 'duration');
  }

  // ---- highlights: ancestors / descendants, path, critical path ----
  function setNote(text) {
    st.note = text;
    updateStatus();
  }
  // The critical-path and observed-path buttons show which of them is on.
  function pathButtonsOff() {
    $('critical').classList.remove('on');
    $('observed-button').classList.remove('on');
  }
  function clearHighlight() {
    st.nodeHl = st.pairHl = null;
    st.hlKind = null;
    pathButtonsOff();
    setNote('');
    R.invalidate();
  }
  function markPath(nodes, code) {
    st.nodeHl = new Uint8Array(g.n);
    st.pairHl = new Uint8Array(g.m);
    for (let k = 0; k < nodes.length; k++) {
      st.nodeHl[nodes[k]] = code;
      if (k) {
        const p = pairOf(g, nodes[k - 1], nodes[k]);
        if (p >= 0) st.pairHl[p] = code;
      }
    }
  }
  function applyHighlight() {
    const i = st.selected, kind = st.hlKind;
    if (kind === 'anc' || kind === 'desc' || kind === 'both') {
      if (i < 0) return clearHighlight();
      const mask = st.mode === 'retained' ? modeMask(g, 'full') : st.mask;
      const nodeHl = new Uint8Array(g.n), pairHl = new Uint8Array(g.m);
      const parts = [];
      const run = (forward, code) => {
        const { dist, count } = reach(g, i, forward, st.hlDepth, mask);
        for (let v = 0; v < g.n; v++) if (dist[v] >= 0) nodeHl[v] = code;
        for (let p = 0; p < g.m; p++) {
          if (mask[p] && dist[g.src[p]] >= 0 && dist[g.dst[p]] >= 0) pairHl[p] = code;
        }
        parts.push(fmt(count) + (forward ? ' descendants' : ' ancestors'));
      };
      if (kind !== 'desc') run(false, 1);
      if (kind !== 'anc') run(true, 2);
      nodeHl[i] = kind === 'desc' ? 2 : 1;
      st.nodeHl = nodeHl;
      st.pairHl = pairHl;
      setNote(parts.join(', ') + ' of ' + displayId(g, i) + ' (depth ' +
        (st.hlDepth ? '\u2264 ' + st.hlDepth : 'unlimited') + ', ' +
        (mask === st.mask ? st.mode : 'full') + ' edges; [ ] change)');
    }
    R.invalidate();
  }
  function highlight(kind) {
    if (st.selected < 0) return setNote('select a task first');
    st.hlKind = kind;
    pathButtonsOff();
    applyHighlight();
  }
  // Key p, shift-click and the panel's path button: the path tool lists the steps.
  function showPath() {
    const a = st.selected, b = st.second;
    if (a < 0) return setNote('select a task, then shift-click a second one (or type both in the path box)');
    if (b < 0) return pathTool.open(a, -1);
    st.hlKind = 'path';
    pathButtonsOff();
    pathTool.show(a, b);
    R.invalidate();
  }
  // The observed critical path of the timing records (what gated each start, as `depgraph
  // critical-path` walks it): marked in the graph and drawn through the runs on the timeline.
  function toggleObserved() {
    if (!timeline) return setNote('no timeline: this capture has no chip_swimlane_records.json');
    if (st.hlKind === 'observed') return clearHighlight();
    const cp = timeline.observedPath();
    if (!cp.steps) return setNote('observed critical path: ' + cp.note);
    const nodes = cp.steps.map((s) => s.node).filter((i) => i >= 0);
    st.hlKind = 'observed';
    markPath(nodes, 5);
    pathButtonsOff();
    $('observed-button').classList.add('on');
    setNote(timeline.observedSummary());
    R.invalidate();
  }
  function toggleCritical() {
    if (st.hlKind === 'critical') return clearHighlight();
    const path = criticalPath(g);
    if (!path) return setNote('critical path: the graph has a cycle');
    st.hlKind = 'critical';
    markPath(path, 4);
    pathButtonsOff();
    $('critical').classList.add('on');
    let total = 0;
    if (g.weight) for (const i of path) total += g.weight[i];
    setNote('critical path: ' + Math.max(0, path.length - 1) + ' edges, ' + path.length +
      ' tasks' + (g.weight ? ', ' + formatUs(total) + ' of task time' : '') +
      (path.length ? ' (' + displayId(g, path[0]) + ' \u2192 ' +
        displayId(g, path[path.length - 1]) + ')' : ''));
    R.invalidate();
  }

  // ---- selection and the panel ----
  function link(i) {
    return '<a class="task-link" data-id="' + g.ids[i] + '">' + esc(displayId(g, i)) + '</a>';
  }
  function edgeFacts(p) {
    let html = st.mask[p] ? '' : '<span class="tag hidden-edge">not in ' + esc(st.mode) + '</span>';
    for (const row of pairRows(g, p)) html += '<span class="tag">' + esc(edgeRowText(row)) + '</span>';
    return html;
  }
  function neighbourTable(list, pairFor) {
    if (!list.length) return '<div class="note">none</div>';
    return '<table>' + list.map((v) => '<tr><td>' + link(v) + '</td><td>' +
      esc(kernelName(g, v) || KIND_NAMES[g.kind[v]]) + '</td><td>' + edgeFacts(pairFor(v)) +
      '</td></tr>').join('') + '</table>';
  }
  function showPanel(i) {
    const panel = $('panel');
    const det = taskDetails(g, i);
    const preds = predsOf(g, i), succs = succsOf(g, i);
    const kv = [['raw id', g.ids[i]], ['kind', KIND_NAMES[g.kind[i]]],
      ['core', CORE_NAMES[g.core[i]]], ['kernel', kernelName(g, i) || '\u2014']];
    if (det) kv.push(['kernel ids', 'aic ' + det.kids[0] + ', aiv0 ' + det.kids[1] + ', aiv1 ' + det.kids[2]]);
    if (g.kind[i] !== 2) {
      kv.push(['block_num', g.block.get(i) || 1], ['scope', g.manual[i] ? 'manual' : 'auto']);
    }
    if (g.dur) {
      kv.push(['duration', g.dur[i] < 0 ? 'no timing records' : durationText(g, i) +
        ' (starts at ' + formatUs(g.t0[i]) + ', ' + fmt(g.nb[i]) + ' record' +
        (g.nb[i] === 1 ? '' : 's') + ')']);
    }
    let html = '<button class="close" title="close (Esc)">\u00d7</button>' +
      '<h3>' + esc(nodeLabel(g, i)) + '</h3><table class="kv">' +
      kv.map(([k, v]) => '<tr><td>' + k + '</td><td>' + esc(v) + '</td></tr>').join('') + '</table>' +
      '<div class="tools"><button data-act="anc">ancestors (a)</button>' +
      '<button data-act="desc">descendants (d)</button><button data-act="both">both (b)</button>' +
      '<label>depth <input id="hl-depth" type="number" min="0" value="' + st.hlDepth +
      '" style="width:48px"></label><button data-act="clear">clear</button>' +
      '<button data-act="centre">centre (z)</button>' +
      '<button data-act="path-start" title="why is a task after this one?">path from here</button>' +
      '<button data-act="path-end" title="why is this task after another?">path to here</button></div>';
    if (st.second >= 0) {
      html += '<div class="note">second task: ' + link(st.second) +
        ' <button data-act="path">path (p)</button></div>';
    }
    if (det) {
      html += '<h4>Arguments (' + det.args.length + ')</h4>';
      html += det.args.length ? '<table><tr><th>idx</th><th>type</th><th>tensor</th><th>shape</th>' +
        '<th>dtype</th><th>offset</th><th>strides</th></tr>' + det.args.map((a) => '<tr><td>' +
        [a.idx, a.type, a.tensor, a.shape, a.dtype, a.offset, a.strides].map(esc).join('</td><td>') +
        '</td></tr>').join('') + '</table>' : '<div class="note">none</div>';
    } else if (!g.details) {
      html += '<div class="note">Arguments and edge rows are not embedded in pages of this size ' +
        '(see docs/explorer.md); depgraph query and --format text have them.</div>';
    }
    html += '<h4>Predecessors (' + preds.length + ')</h4><div id="panel-preds">' +
      neighbourTable(preds, (v) => pairOf(g, v, i)) + '</div>';
    html += '<h4>Successors (' + succs.length + ')</h4><div id="panel-succs">' +
      neighbourTable(succs, (v) => pairOf(g, i, v)) + '</div>';
    panel.innerHTML = html;
    panel.hidden = false;
    document.body.classList.add('panel-open');
    R.rightInset = panel.offsetWidth;
  }
  function hidePanel() {
    $('panel').hidden = true;
    document.body.classList.remove('panel-open');
    R.rightInset = 0;
  }
  function select(i, centre) {
    if (i < 0 || i >= g.n) return false;
    st.selected = i;
    if (st.second === i) st.second = -1;
    st.neighbours = { preds: predsOf(g, i), succs: succsOf(g, i) };
    if (st.hlKind === 'path') clearHighlight();
    showPanel(i);
    if (structure && !$('structure').hidden) structure.reveal(i);
    if (units) units.reveal(i, st.mask);  // the boxes holding it open
    if (timeline) timeline.reveal(i);
    const hash = '#task=' + g.ids[i];
    if (location.hash !== hash) history.replaceState(null, '', hash);
    if (st.hlKind === 'anc' || st.hlKind === 'desc' || st.hlKind === 'both') applyHighlight();
    if (centre) R.centreOn(i, true);
    R.invalidate();
    updateStatus();
    return true;
  }
  function selectSecond(i) {
    if (st.selected < 0) return select(i, false);
    if (i === st.selected) return false;
    st.second = i;
    showPanel(st.selected);
    showPath();
    return true;
  }
  function clearSelection() {
    st.selected = st.second = -1;
    st.neighbours = null;
    hidePanel();
    history.replaceState(null, '', location.pathname + location.search);
    R.invalidate();
    updateStatus();
  }

  // ---- groups on the canvas: a click on a box opens it, on an open one's header closes it ----
  function toggleUnit(id) {
    if (!units || id < 0) return false;
    units.setOpen(id, !units.open[id], st.mask);
    setNote((units.open[id] ? 'opened ' : 'closed ') + units.title(id) + ' (' + units.detail(id) + ')');
    R.invalidate();
    return true;
  }
  // Key e: every group open (the flat drawing), or back to the first view's boxes.
  function toggleExpandAll() {
    if (!units) return setNote('no groups drawn on this page');
    if (units.open.every((o) => o)) units.firstView(st.mask); else units.expandAll(st.mask);
    R.invalidate();
  }

  // ---- the structure outline (repeated groups) ----
  let structure = null;
  function showStructure(on) {
    if (!structure) return setNote('no repeated structure found in this graph');
    $('structure').hidden = !on;
    document.body.classList.toggle('structure-open', on);
    R.leftInset = on ? $('structure').offsetWidth : 0;
    R.invalidate();
  }
  // Marks `nodes` (a group's) and fits the view to them.
  function highlightNodes(nodes, text) {
    st.hlKind = 'group';
    pathButtonsOff();
    st.nodeHl = new Uint8Array(g.n);
    st.pairHl = new Uint8Array(g.m);
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const i of nodes) {
      st.nodeHl[i] = 3;
      x0 = Math.min(x0, g.x[i]); x1 = Math.max(x1, g.x[i]);
      y0 = Math.min(y0, g.y[i]); y1 = Math.max(y1, g.y[i]);
    }
    for (const i of nodes) {
      for (let p = g.outOff[i]; p < g.outOff[i + 1]; p++) if (st.nodeHl[g.dst[p]]) st.pairHl[p] = 3;
    }
    if (nodes.length) R.fitBox(x0, y0, x1, y1);
    setNote(text + ' \u00b7 ' + fmt(nodes.length) + ' node' + (nodes.length === 1 ? '' : 's'));
    R.invalidate();
  }
  if (G) {
    structure = createStructure(g, G, { highlightNodes, esc, label: (i) => displayId(g, i) });
    $('structure-button').hidden = false;
  }

  // ---- the timeline (pages with timing records) ----
  const timeline = createTimeline(g, st, { select, note: setNote });
  let timelineDrawn = -1;
  if (timeline) $('timeline-button').hidden = false;
  function toggleTimeline() {
    if (!timeline) return setNote('no timeline: this capture has no chip_swimlane_records.json');
    timeline.toggle();
  }

  // ---- search and the path question ----
  const searchTool = createSearch(g, st, { select, esc, redraw: () => R.invalidate() });
  const pathTool = createPathTool(g, {
    select, link, esc, note: setNote, mask: () => st.mask,
    markPath: (nodes, code) => { st.hlKind = 'path'; markPath(nodes, code); R.invalidate(); },
    clearPathMark: () => { if (st.hlKind === 'path') clearHighlight(); },
  });

  // ---- status line and hover ----
  function updateStatus() {
    const v = R.view;
    const parts = ['zoom ' + (v.s >= 0.1 ? v.s.toFixed(2) : v.s.toPrecision(2))];
    if (R.usedCache) parts.push('moving: cached image');
    if (st.note) parts.push(st.note);
    $('status').textContent = parts.join(' \u00b7 ');
  }
  R.onFrame = () => {
    updateStatus();
    if (timeline && timeline.isOpen() && R.stateVersion !== timelineDrawn) {
      timelineDrawn = R.stateVersion;
      timeline.draw();
    }
    // The view moved under a still pointer: the tooltip names what is under it now.
    if (hoverAt && !hoverPending) { hoverPending = true; requestAnimationFrame(hover); }
  };
  let hoverAt = null, hoverPending = false;
  function hover() {
    hoverPending = false;
    const tip = $('hover');
    if (!hoverAt) { tip.hidden = true; return; }
    const i = R.hitTest(hoverAt.x, hoverAt.y);
    const u = i < 0 ? R.hitUnit(hoverAt.x, hoverAt.y) : -1;
    if (u >= 0) {
      canvas.style.cursor = 'pointer';
      tip.textContent = units.title(u) + ' \u2014 ' + units.detail(u) + ' (click to ' +
        (units.open[u] ? 'close' : 'open') + ')';
      tip.style.left = (hoverAt.x + 14) + 'px';
      tip.style.top = (hoverAt.y + 14) + 'px';
      tip.hidden = false;
      return;
    }
    if (i < 0) { tip.hidden = true; canvas.style.cursor = ''; return; }
    canvas.style.cursor = 'pointer';
    const duration = durationText(g, i);
    tip.textContent = nodeLabel(g, i) + ' \u2014 ' + KIND_NAMES[g.kind[i]] +
      (g.kind[i] === 0 ? ', ' + CORE_NAMES[g.core[i]] : '') + ', ' + (g.inOff[i + 1] - g.inOff[i]) +
      ' in / ' + (g.outOff[i + 1] - g.outOff[i]) + ' out' + (duration ? ', ' + duration : '');
    tip.style.left = (hoverAt.x + 14) + 'px';
    tip.style.top = (hoverAt.y + 14) + 'px';
    tip.hidden = false;
  }

  // ---- mouse ----
  let drag = null;
  const local = (e) => {
    const rect = canvas.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };
  canvas.addEventListener('mousedown', (e) => {
    if (e.button !== 0) return;
    const p = local(e);
    drag = { x: p.x, y: p.y, moved: false };
    canvas.classList.add('dragging');
  });
  window.addEventListener('mousemove', (e) => {
    const p = local(e);
    if (drag) {
      const dx = p.x - drag.x, dy = p.y - drag.y;
      if (drag.moved || Math.abs(dx) + Math.abs(dy) > 3) {
        drag.moved = true;
        R.panBy(dx, dy);
        drag.x = p.x;
        drag.y = p.y;
      }
      hoverAt = null;
    } else {
      hoverAt = e.target === canvas ? p : null;
    }
    if (!hoverPending) { hoverPending = true; requestAnimationFrame(hover); }
  });
  window.addEventListener('mouseup', (e) => {
    if (!drag) return;
    const clicked = !drag.moved;
    drag = null;
    canvas.classList.remove('dragging');
    if (!clicked || e.target !== canvas) return;
    const p = local(e);
    const i = R.hitTest(p.x, p.y);
    if (i < 0) return toggleUnit(R.hitUnit(p.x, p.y));
    if (e.shiftKey) selectSecond(i); else select(i, false);
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const p = local(e);
    const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    R.zoomAt(Math.exp(-dy * 0.0015), p.x, p.y);
  }, { passive: false });
  const mini = $('minimap');
  let miniDrag = false;
  const miniJump = (e) => {
    const rect = mini.getBoundingClientRect();
    R.minimapJump((e.clientX - rect.left) * mini.width / rect.width,
      (e.clientY - rect.top) * mini.height / rect.height);
  };
  mini.addEventListener('mousedown', (e) => { miniDrag = true; miniJump(e); e.stopPropagation(); });
  window.addEventListener('mousemove', (e) => { if (miniDrag) miniJump(e); });
  window.addEventListener('mouseup', () => { miniDrag = false; });

  // ---- clicks on links, results and panel tools ----
  document.addEventListener('click', (e) => {
    const t = e.target.closest('.task-link, .result, [data-act], .close');
    if (!t) return;
    if (t.dataset.id !== undefined) {
      e.preventDefault();
      const i = nodeOf(g, t.dataset.id);
      if (t.classList.contains('result')) $('search-results').hidden = true;
      if (e.shiftKey) selectSecond(i); else select(i, true);
      return;
    }
    if (t.classList.contains('close')) return clearSelection();
    const act = t.dataset.act;
    if (act === 'clear') clearHighlight();
    else if (act === 'centre' && st.selected >= 0) R.centreOn(st.selected, true);
    else if (act === 'path') showPath();
    else if (act === 'path-start' && st.selected >= 0) pathTool.setStart(st.selected);
    else if (act === 'path-end' && st.selected >= 0) pathTool.setEnd(st.selected);
    else if (act) highlight(act);
  });
  document.addEventListener('change', (e) => {
    if (e.target.id === 'hl-depth') {
      st.hlDepth = Math.max(0, parseInt(e.target.value, 10) || 0);
      if (st.hlKind) applyHighlight();
    }
  });
  $('mode').addEventListener('change', (e) => setMode(e.target.value));
  $('color-by').addEventListener('change', (e) => setColourBy(e.target.value));
  $('critical').addEventListener('click', toggleCritical);
  $('timeline-button').addEventListener('click', toggleTimeline);
  $('observed-button').addEventListener('click', toggleObserved);
  $('structure-button').addEventListener('click', () => showStructure($('structure').hidden));
  $('structure-close').addEventListener('click', () => showStructure(false));
  $('path-button').addEventListener('click', () => {
    if (st.selected >= 0 && st.second >= 0) showPath(); else pathTool.open(st.selected, -1);
  });
  $('fit').addEventListener('click', fitAll);
  $('help-button').addEventListener('click', () => { $('help').hidden = !$('help').hidden; });
  $('help').addEventListener('click', () => { $('help').hidden = true; });
  const search = $('search');
  search.addEventListener('input', () => searchTool.run(search.value));
  search.addEventListener('focus', () => { if (search.value.trim()) searchTool.run(search.value); });
  search.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      searchTool.moveActive(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      searchTool.pickActive(e.shiftKey);
    } else if (e.key === 'Escape') {
      $('search-results').hidden = true;
      search.blur();
    }
  });
  document.addEventListener('mousedown', (e) => {
    if (!e.target.closest('.search-box')) $('search-results').hidden = true;
  });

  // ---- keys ----
  window.addEventListener('keydown', (e) => {
    const tag = e.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const step = 120;
    const keys = {
      '?': () => { $('help').hidden = !$('help').hidden; },
      '/': () => { search.focus(); search.select(); },
      'Escape': () => {
        if (!$('help').hidden) $('help').hidden = true;
        else if (pathTool.isOpen()) pathTool.close();
        else if (st.hlKind) clearHighlight();
        else if (st.selected >= 0) clearSelection();
      },
      'a': () => highlight('anc'), 'd': () => highlight('desc'), 'b': () => highlight('both'),
      '[': () => { st.hlDepth = Math.max(0, st.hlDepth - 1); syncDepth(); },
      ']': () => { st.hlDepth += 1; syncDepth(); },
      'p': showPath, 'c': toggleCritical,
      'm': () => setMode(MODES[(MODES.indexOf(st.mode) + 1) % MODES.length]),
      'k': () => {
        const order = colourOrder();
        setColourBy(order[(order.indexOf(st.colourBy) + 1) % order.length]);
      },
      'e': toggleExpandAll, 'w': toggleTimeline, 'o': toggleObserved,
      'i': () => { if (timeline) timeline.toggleIdle(); },
      't': toggleDuration, 'g': () => showStructure(!structure || $('structure').hidden),
      '1': () => setMode('full'), '2': () => setMode('reduced'),
      '3': () => setMode('reduced_dataflow'), '4': () => setMode('retained'),
      'f': fitAll, '0': fitAll, 'h': () => R.fitHeight(),
      'n': () => searchTool.next(1), 'N': () => searchTool.next(-1),
      'z': () => { if (st.selected >= 0) R.centreOn(st.selected, true); },
      'l': () => { st.labels = !st.labels; R.invalidate(); },
      '+': () => R.zoomAt(1.4, R.W / 2, R.H / 2), '=': () => R.zoomAt(1.4, R.W / 2, R.H / 2),
      '-': () => R.zoomAt(1 / 1.4, R.W / 2, R.H / 2),
      'ArrowLeft': () => R.panBy(step, 0), 'ArrowRight': () => R.panBy(-step, 0),
      'ArrowUp': () => R.panBy(0, step), 'ArrowDown': () => R.panBy(0, -step),
    };
    const fn = keys[e.key];
    if (!fn) return;
    e.preventDefault();
    fn();
  });
  // f: the whole graph; the "this is its start" note of the first view is then stale.
  function fitAll() {
    R.fit();
    if (st.note === START_NOTE) setNote('');
  }
  function syncDepth() {
    const input = $('hl-depth');
    if (input) input.value = st.hlDepth;
    if (st.hlKind === 'anc' || st.hlKind === 'desc' || st.hlKind === 'both') applyHighlight();
    else setNote('highlight depth ' + (st.hlDepth || 'unlimited'));
  }
  function fromHash() {
    const m = /(?:^#|&)task=(\d+)/.exec(location.hash);
    if (m && nodeOf(g, m[1]) >= 0 && nodeOf(g, m[1]) !== st.selected) {
      select(nodeOf(g, m[1]), true);
    }
  }
  window.addEventListener('hashchange', fromHash);
  window.addEventListener('resize', () => { R.resize(); R.invalidate(); });

  // ---- the API of docs/explorer.md ----
  const byId = (id) => nodeOf(g, id);
  const ids = (list) => list.map((i) => g.ids[i]);
  api.selectTask = (id) => select(byId(id), true);
  api.selectedTask = () => (st.selected >= 0 ? g.ids[st.selected] : null);
  api.setMode = (mode) => setMode(mode);
  api.visibleEdgeCount = () => edgeCount();
  api.search = (text) => {
    search.value = String(text);
    return searchTool.run(text);
  };
  api.searchMatches = () => searchTool.matches();
  api.searchNext = (delta) => searchTool.next(delta === undefined ? 1 : delta);
  api.pathBetween = (a, b) => {
    const i = byId(a), j = byId(b);
    return i < 0 || j < 0 ? null : pathTool.show(i, j);
  };
  api.pathResult = () => pathTool.result();
  api.noteText = () => st.note;
  api.groups = () => (G ? {
    kinds: G.kinds.map((k) => ({ label: k.label, size: k.size, tasks: k.tasks })),
    series: G.series.map((x) => ({ kind: x.kind, count: x.count, begin: x.begin })),
  } : null);
  api.groupChain = (id) => {
    const i = byId(id);
    return G && i >= 0 ? groupChain(G, i).map((c) => ({ kind: c.series.kind, count: c.series.count,
      instance: c.instance })) : null;
  };
  // Groups on the canvas: the boxes drawn now (title, what they hold, open or not, their
  // screen rectangle), opening or closing one, every group open or the first view again.
  api.groupBoxes = () => (units ? units.drawn.map((id) => {
    const u = units.units[id], v = R.view, marks = units.marks(st);
    return { unit: id, title: units.title(id), detail: units.detail(id), open: !!units.open[id],
      matches: marks.matches[id], highlight: marks.hl[id],
      x0: u.x0 * v.s + v.tx, y0: u.y0 * v.s + v.ty, x1: u.x1 * v.s + v.tx, y1: u.y1 * v.s + v.ty };
  }) : []);
  api.shownNodeCount = () => { let c = 0; for (let i = 0; i < g.n; i++) c += units && units.hidden[i] ? 0 : 1; return c; };
  api.toggleGroup = (unit) => toggleUnit(unit);
  api.expandAll = () => { if (units) { units.expandAll(st.mask); R.invalidate(); } };
  api.groupArrows = () => (units ? Array.from(units.agg.count).map((c, k) => ({
    from: units.agg.from[k], to: units.agg.to[k], count: c })) : []);
  // The timeline: open or close it, a task's runs (CSS pixels of #timeline-canvas), a click.
  api.toggleTimeline = (on) => (timeline ? timeline.toggle(on) : null);
  api.timelineRuns = (id) => (timeline && byId(id) >= 0 ? timeline.runsOf(byId(id)) : null);
  api.timelineClick = (x, y) => (timeline ? timeline.clickAt(x, y) : null);
  api.timelineLanes = () => (timeline ? timeline.lanes() : []);
  // The observed critical path (raw ids, first to last; null without one) and the idle
  // stretches with ready work drawn on the timeline; toggles for both.
  api.toggleObserved = () => { toggleObserved(); return st.hlKind === 'observed'; };
  api.observedPath = () => {
    if (!timeline) return null;
    const cp = timeline.observedPath();
    return cp.steps ? cp.steps.filter((s) => s.node >= 0).map((s) => g.ids[s.node]) : null;
  };
  api.timelineIdle = () => (timeline ? timeline.idleStretches() : []);
  api.timelineX = (us) => (timeline ? timeline.xOf(us) : null);
  api.timelineY = (lane) => (timeline ? timeline.yOf(lane) : null);
  api.toggleIdle = (on) => (timeline ? timeline.toggleIdle(on) : null);
  api.unitLabelsDrawn = () => R.unitLabelsDrawn || 0;
  api.structureRows = () => (structure ? structure.rows() : []);
  api.toggleStructureRow = (k) => structure && structure.toggleRow(k);
  api.clickStructureRow = (k) => structure && structure.clickRow(k);
  api.highlighted = () => (st.nodeHl ? ids(Array.from(st.nodeHl.keys()).filter((i) => st.nodeHl[i])) : []);
  api.zoom = () => R.view.s;
  api.labelsDrawn = () => st.labels && (R.nodeLegible() || (R.unitLabelsDrawn || 0) > 0);
  api.markedNeighbours = () => (st.selected >= 0 && st.neighbours
    ? { preds: ids(st.neighbours.preds), succs: ids(st.neighbours.succs) } : null);
  api.neighbours = (id) => {
    const i = byId(id);
    return i < 0 ? null : { preds: ids(predsOf(g, i)), succs: ids(succsOf(g, i)) };
  };
  api.path = (a, b) => {
    const i = byId(a), j = byId(b);
    if (i < 0 || j < 0) return null;
    const p = shortestPath(g, i, j);
    return p ? ids(p) : null;
  };
  api.panBy = (dx, dy) => R.panBy(dx, dy);
  api.zoomAt = (factor, x, y) => R.zoomAt(factor, x, y);
  api.renderNow = () => {
    const t0 = performance.now();
    R.draw(false);
    canvas.getContext('2d').getImageData(0, 0, 1, 1);  // include the rasterisation
    return performance.now() - t0;
  };
  api.criticalPath = () => { const p = criticalPath(g); return p ? ids(p) : null; };
  api.setColorBy = (by) => setColourBy(by);
  api.colorBy = () => st.colourBy;
  api.screenPosition = (id) => {
    const i = byId(id);
    return i < 0 ? null : { x: g.x[i] * R.view.s + R.view.tx, y: g.y[i] * R.view.s + R.view.ty };
  };
  api.duration = (id) => {
    const i = byId(id);
    return i >= 0 && g.dur && g.dur[i] >= 0 ? g.dur[i] : null;
  };

  // ---- start ----
  if (g.dur) {
    const option = document.createElement('option');
    option.value = 'duration';
    option.textContent = 'duration (t)';
    $('color-by').appendChild(option);
  }
  st.mask = modeMask(g, st.mode);
  if (units) units.firstView(st.mask);
  $('mode').value = st.mode;
  updateHeader();
  computeColours();
  R.resize();
  // Open by default where it pays for the room it takes: on small graphs the canvas shows the
  // structure itself, and the outline would list runs of single tasks. Before the first view,
  // which it narrows.
  if (structure && g.n >= STRUCTURE_OPEN_MIN_NODES) showStructure(true);
  if (!R.initialView()) setNote(START_NOTE);
  const m = /(?:^#|&)task=(\d+)/.exec(location.hash);
  if (m && byId(m[1]) >= 0) select(byId(m[1]), true);
  timings.ui = performance.now();
  R.draw(true);
  canvas.getContext('2d').getImageData(0, 0, 1, 1);
  api.firstPaintMs = timings.firstFrame = performance.now();
  api.ready = true;
  setTimeout(() => { R.buildOverview(); R.request(); }, 30);
})();
