'use strict';
// The explorer's groups on the canvas: every series and instance of the grouping
// (graph/task_groups.h) as a box of the grouped layout (render/grouped_layout.h), collapsed
// (one box, its nodes hidden) or open (a frame around its inside). The pairs between what is
// shown are aggregated: one arrow per pair of boxes, with the count. Expanding never moves
// anything: the layout gave every box the room its inside needs. Model: explorer_data.js and
// the grouping of explorer_groups.js; drawing: explorer_render.js.

const FIRST_VIEW_ITEMS = 300;  // the first view opens groups level by level up to this many
const UNIT_HEADER = 26;        // world units: the label row of a box (GroupedLayoutOptions)

/**
 * The boxes of grouping `G` on model `g`, or null when the page was drawn without them.
 * Units are listed depth first (the order of `groups.box`): a series, then each instance and
 * the series nested in it. Returns the units object (see the methods below). O(V x depth).
 */
function createUnits(g, G) {
  const box = G && g.data.groups.box;
  if (!box) return null;
  const units = [];
  let b = 0;
  function addSeries(s, parent, depth) {
    const size = G.kinds[s.kind].size;
    const id = units.length;
    units.push({ series: true, kind: s.kind, count: s.count, instance: -1, start: s.begin,
      end: s.begin + s.count * size, parent, depth, kids: [], x0: box[b], y0: box[b + 1],
      x1: box[b + 2], y1: box[b + 3] });
    b += 4;
    for (let i = 0; i < s.count; i++) {
      const start = s.begin + i * size, iid = units.length;
      const inst = { series: false, kind: s.kind, count: 1, instance: i, start, end: start + size,
        parent: id, depth: depth + 1, kids: [], x0: box[b], y0: box[b + 1], x1: box[b + 2],
        y1: box[b + 3] };
      b += 4;
      units.push(inst);
      units[id].kids.push(iid);
      for (const c of G.childrenOf(s.kind, start)) inst.kids.push(addSeries(c, iid, depth + 2));
    }
    return id;
  }
  const roots = G.series.map((s) => addSeries(s, -1, 0));
  // The innermost unit holding each node (-1: outside every series).
  const inner = new Int32Array(g.n).fill(-1);
  for (let u = 0; u < units.length; u++) {  // parents come first: inner ones overwrite
    for (let p = units[u].start; p < units[u].end; p++) inner[G.order[p]] = u;
  }
  const open = new Uint8Array(units.length);
  const U = {
    units, roots, open, inner,
    hidden: new Uint8Array(g.n),   // 1: inside a collapsed box
    rep: new Int32Array(g.n),      // the collapsed box a hidden node is drawn as, else -1
    drawn: [],                     // units drawn: open frames and collapsed boxes
    agg: null,                     // aggregated pairs (refresh)
    version: 0,
  };

  // An arrow's end for node i: the collapsed box drawing it, else units.length + i.
  const endOf = (i) => (U.rep[i] >= 0 ? U.rep[i] : units.length + i);

  /** Recomputes what is drawn and the aggregated pairs for edge mask `mask`. O(V + E). */
  U.refresh = function (mask) {
    const rep = U.rep.fill(-1);
    U.drawn = [];
    const visit = (id) => {
      U.drawn.push(id);
      const u = units[id];
      if (!open[id]) {
        for (let p = u.start; p < u.end; p++) rep[G.order[p]] = id;
        return;
      }
      for (const k of u.kids) visit(k);
    };
    for (const r of roots) visit(r);
    for (let i = 0; i < g.n; i++) U.hidden[i] = rep[i] >= 0 ? 1 : 0;
    // One arrow per (end, end) with an end in a collapsed box; ends: a box, or a node.
    const index = new Map(), from = [], to = [], count = [];
    const N = units.length + g.n;
    for (let p = 0; p < g.m; p++) {
      if (!mask[p]) continue;
      if (rep[g.src[p]] < 0 && rep[g.dst[p]] < 0) continue;
      const ea = endOf(g.src[p]), eb = endOf(g.dst[p]);
      if (ea === eb) continue;
      const key = ea * N + eb;
      let k = index.get(key);
      if (k === undefined) {
        k = from.length;
        index.set(key, k);
        from.push(ea);
        to.push(eb);
        count.push(0);
      }
      count[k]++;
    }
    // Ends: the middle of the source's right side and of the target's left side; the lane of
    // an arrow that runs backwards (a wrapped row): between the two ends' boxes, or above both.
    const n = from.length, ax = new Float64Array(n), ay = new Float64Array(n);
    const bx = new Float64Array(n), by = new Float64Array(n), lane = new Float64Array(n);
    const top = (e) => (e < units.length ? units[e].y0 : g.y[e - units.length] - NODE_H / 2);
    const bottom = (e) => (e < units.length ? units[e].y1 : g.y[e - units.length] + NODE_H / 2);
    for (let k = 0; k < n; k++) {
      const a = from[k], c = to[k];
      if (a < units.length) { ax[k] = units[a].x1; ay[k] = (units[a].y0 + units[a].y1) / 2; }
      else { ax[k] = g.x[a - units.length] + NODE_W / 2; ay[k] = g.y[a - units.length]; }
      if (c < units.length) { bx[k] = units[c].x0; by[k] = (units[c].y0 + units[c].y1) / 2; }
      else { bx[k] = g.x[c - units.length] - NODE_W / 2; by[k] = g.y[c - units.length]; }
      lane[k] = bottom(a) < top(c) ? (bottom(a) + top(c)) / 2 : bottom(c) < top(a)
        ? (bottom(c) + top(a)) / 2 : Math.min(top(a), top(c)) - NODE_H;
    }
    U.agg = { n, from, to, count: Int32Array.from(count), ax, ay, bx, by, lane, index, N };
    U.version++;
  };

  /**
   * Per drawn collapsed box: search matches inside it, and the strongest highlight code of
   * its nodes; per aggregated arrow, the highlight code of its pairs. O(V + highlighted
   * pairs); cached until the units or the marks change.
   */
  let marksKey = null, marks = null;
  U.marks = function (st) {
    if (marksKey && marksKey[0] === U.version && marksKey[1] === st.matchHl &&
        marksKey[2] === st.nodeHl && marksKey[3] === st.pairHl) return marks;
    const matches = new Int32Array(units.length), hl = new Uint8Array(units.length);
    const aggHl = new Uint8Array(U.agg.n);
    for (const id of U.drawn) {
      if (open[id]) continue;
      const u = units[id];
      for (let p = u.start; p < u.end; p++) {
        const i = G.order[p];
        if (st.matchHl && st.matchHl[i]) matches[id]++;
        if (st.nodeHl && st.nodeHl[i] > hl[id]) hl[id] = st.nodeHl[i];
      }
    }
    if (st.pairHl) {
      const A = U.agg;
      for (let p = 0; p < g.m; p++) {
        if (!st.pairHl[p]) continue;
        if (U.rep[g.src[p]] < 0 && U.rep[g.dst[p]] < 0) continue;
        const k = A.index.get(endOf(g.src[p]) * A.N + endOf(g.dst[p]));
        if (k !== undefined) aggHl[k] = Math.max(aggHl[k], st.pairHl[p]);
      }
    }
    marksKey = [U.version, st.matchHl, st.nodeHl, st.pairHl];
    marks = { matches, hl, aggHl };
    return marks;
  };

  // What opening unit u adds to what shows: its instances (a series), or its nested series and
  // its own nodes (an instance), in place of its box.
  function itemsInside(u) {
    const x = units[u];
    if (x.series) return x.count;
    let nested = 0;
    for (const k of x.kids) nested += units[k].end - units[k].start;
    return x.kids.length + (x.end - x.start - nested);
  }
  /**
   * Collapses everything, then opens boxes level by level, largest first, while at most
   * FIRST_VIEW_ITEMS boxes and tasks show. The boxes of one kind at one level open together
   * or not at all (256 requests look alike), so one huge series does not keep a small one
   * shut. O(units + V + E).
   */
  U.firstView = function (mask) {
    open.fill(0);
    let shown = roots.length + g.n;
    for (const r of roots) shown -= units[r].end - units[r].start;
    let closed = roots.slice();
    while (closed.length) {
      const byKind = new Map();
      for (const id of closed) {
        const key = (units[id].series ? 's' : 'i') + units[id].kind;
        if (!byKind.has(key)) byKind.set(key, []);
        byKind.get(key).push(id);
      }
      const sets = [...byKind.values()].sort((a, b) =>
        (units[b[0]].end - units[b[0]].start) - (units[a[0]].end - units[a[0]].start) || a[0] - b[0]);
      const next = [];
      for (const ids of sets) {
        let grow = 0;
        for (const id of ids) grow += itemsInside(id) - 1;
        if (shown + grow > FIRST_VIEW_ITEMS) continue;
        shown += grow;
        for (const id of ids) { open[id] = 1; next.push(...units[id].kids); }
      }
      closed = next;
    }
    U.refresh(mask);
  };
  U.expandAll = function (mask) { open.fill(1); U.refresh(mask); };
  U.setOpen = function (id, on, mask) {
    if (id < 0 || id >= units.length || !!open[id] === !!on) return false;
    open[id] = on ? 1 : 0;
    if (!on) {  // closing a box closes what is inside it too: it reopens as it was first drawn
      const u = units[id];
      const stack = [...u.kids];
      while (stack.length) { const k = stack.pop(); open[k] = 0; stack.push(...units[k].kids); }
    }
    U.refresh(mask);
    return true;
  };
  /** Opens every box holding node i; returns whether anything changed. O(depth + V + E). */
  U.reveal = function (i, mask) {
    let changed = false;
    for (let u = inner[i]; u >= 0; u = units[u].parent) {
      if (!open[u]) { open[u] = 1; changed = true; }
    }
    if (changed) U.refresh(mask);
    return changed;
  };
  /** The unit under world point (wx, wy): a collapsed box, or the header of an open one
   *  (the innermost); -1 if none. O(drawn units). */
  U.hit = function (wx, wy, tol) {
    let best = -1;
    for (const id of U.drawn) {
      const u = units[id];
      if (wx < u.x0 - tol || wx > u.x1 + tol || wy < u.y0 - tol || wy > u.y1 + tol) continue;
      if (open[id] && wy > u.y0 + UNIT_HEADER + tol) continue;
      if (best < 0 || u.depth > units[best].depth) best = id;
    }
    return best;
  };
  /** The box's title ("G1 ×64", "G0 #17") and what it holds. */
  U.title = (id) => {
    const u = units[id];
    return u.series ? 'G' + u.kind + ' \u00d7' + u.count.toLocaleString('en-US') : '#' + u.instance;
  };
  U.detail = (id) => {
    const u = units[id], k = G.kinds[u.kind];
    const nodes = u.end - u.start;
    return nodes.toLocaleString('en-US') + ' node' + (nodes === 1 ? '' : 's') + ' \u00b7 ' +
      (u.series ? '' : 'G' + u.kind + ' ') + k.label;
  };
  /**
   * The points of aggregated arrow k: straight when it runs forwards; else out of the source's
   * right side by `out` world units, along its lane, and into the target's left side.
   */
  U.route = function (k, out) {
    const A = U.agg, x1 = A.ax[k], y1 = A.ay[k], x2 = A.bx[k], y2 = A.by[k];
    if (x2 >= x1) return [x1, y1, x2, y2];
    return [x1, y1, x1 + out, y1, x1 + out, A.lane[k], x2 - out, A.lane[k], x2 - out, y2, x2, y2];
  };
  U.nodesOf = (id) => Array.from(G.order.subarray(units[id].start, units[id].end));
  return U;
}
