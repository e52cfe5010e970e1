'use strict';
// The explorer's canvas drawing: view transform, level of detail, colour batches, the
// overview/snapshot caches used while the view moves, hit testing by a spatial grid and the
// minimap. Reads the model (explorer_data.js) and a small drawing state; no other DOM.

const NODE_W = 116, NODE_H = 22;     // world units (layout: layer gap 160, node gap 36)
const READABLE_ZOOM = 13.5 / NODE_H; // labels are drawn from 13 device pixels of box height
const IDLE_MS = 140;                 // no input for this long: redraw at full quality
const FAST_MS = 22;                  // a full-quality frame this quick is drawn while moving
const MOVING_EDGE_BUDGET = 250000;   // ... unless its edges are longer than this (device px)
const CELL_W = 120, CELL_H = 72;     // spatial grid cell (world units)
const OVERVIEW_MAX_SIDE = 4096, OVERVIEW_MAX_AREA = 8e6;
const EDGE_COLOUR = '#8d99a8', EDGE_FAINT = '#e2e5e9';
// Ancestors, descendants, a path, the critical path (teal: the duration scale ends in red),
// the observed critical path of the timing records (magenta).
const HL_COLOURS = { 1: '#1a73e8', 2: '#e8710a', 3: '#7b1fa2', 4: '#00897b', 5: '#c2185b' };
const MATCH_COLOUR = '#f9ab00';                     // search matches
// Groups: open frames by depth, collapsed boxes by kind (a light hue), their arrows.
const UNIT_FILLS = ['#f6f8fb', '#eef2f7'], UNIT_FRAME = '#c3ccd8', UNIT_BORDER = '#6b7a8c';
const UNIT_EDGE = '#7d8a99';
/** A collapsed box's fill: a light hue per kind; faded when other things are highlighted. */
function unitFill(kind, faded) {
  return 'hsl(' + ((kind * 67 + 205) % 360) + ',' + (faded ? '20%,96%)' : '48%,88%)');
}
const NEIGHBOUR_COLOURS = ['#1a73e8', '#e8710a'];   // the selection's predecessors, successors

/** Creates the renderer for model `g` on `canvas`; `st` is the shared drawing state. */
function createRenderer(g, canvas, minimap, st) {
  const ctx = canvas.getContext('2d', { alpha: false });
  const mctx = minimap.getContext('2d');
  const r = {
    view: { s: 1, tx: 0, ty: 0 }, W: 1, H: 1, rightInset: 0, leftInset: 0, dpr: 1, lastInput: -1e9, lastQualityMs: 0,
    overview: null, snapshot: null, pending: false, idleTimer: 0, lastFrameMs: 0,
    usedCache: false, onFrame: null,
  };
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < g.n; i++) {
    if (g.x[i] < minX) minX = g.x[i];
    if (g.x[i] > maxX) maxX = g.x[i];
    if (g.y[i] < minY) minY = g.y[i];
    if (g.y[i] > maxY) maxY = g.y[i];
  }
  if (!g.n) { minX = minY = 0; maxX = maxY = 1; }
  const bounds = { x0: minX - NODE_W, y0: minY - NODE_H, x1: maxX + NODE_W, y1: maxY + NODE_H };
  if (st.units) {  // group boxes reach a margin beyond their nodes
    for (const id of st.units.roots) {
      const u = st.units.units[id];
      bounds.x0 = Math.min(bounds.x0, u.x0 - 20); bounds.y0 = Math.min(bounds.y0, u.y0 - 20);
      bounds.x1 = Math.max(bounds.x1, u.x1 + 20); bounds.y1 = Math.max(bounds.y1, u.y1 + 20);
    }
  }
  r.bounds = bounds;

  // Spatial grid: nodes bucketed by cell (CSR), for culling when zoomed in and hit tests.
  // Cells grow (same aspect) until there are at most 4 per node: sparse, elongated layouts
  // would otherwise need hundreds of millions of cells.
  const cellGrow = Math.max(1, Math.sqrt((bounds.x1 - bounds.x0) * (bounds.y1 - bounds.y0) /
    (CELL_W * CELL_H * 4 * Math.max(1, g.n))));
  const CW = CELL_W * cellGrow, CH = CELL_H * cellGrow;
  const gw = Math.max(1, Math.ceil((bounds.x1 - bounds.x0) / CW));
  const gh = Math.max(1, Math.ceil((bounds.y1 - bounds.y0) / CH));
  const cellOf = new Uint32Array(g.n), cellOff = new Uint32Array(gw * gh + 1);
  for (let i = 0; i < g.n; i++) {
    const cx = Math.min(gw - 1, Math.floor((g.x[i] - bounds.x0) / CW));
    const cy = Math.min(gh - 1, Math.floor((g.y[i] - bounds.y0) / CH));
    cellOf[i] = cy * gw + cx;
    cellOff[cellOf[i] + 1]++;
  }
  for (let c = 0; c < gw * gh; c++) cellOff[c + 1] += cellOff[c];
  const cellNodes = new Uint32Array(g.n), fill = cellOff.slice(0, gw * gh);
  for (let i = 0; i < g.n; i++) cellNodes[fill[cellOf[i]]++] = i;

  function forNodesIn(x0, y0, x1, y1, fn) {
    const cx0 = Math.max(0, Math.floor((x0 - bounds.x0) / CW) - 1);
    const cx1 = Math.min(gw - 1, Math.floor((x1 - bounds.x0) / CW) + 1);
    const cy0 = Math.max(0, Math.floor((y0 - bounds.y0) / CH) - 1);
    const cy1 = Math.min(gh - 1, Math.floor((y1 - bounds.y0) / CH) + 1);
    if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > g.n) {
      for (let i = 0; i < g.n; i++) fn(i);
      return;
    }
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let c = cy * gw + cx0, e = cy * gw + cx1; c <= e; c++) {
        for (let k = cellOff[c]; k < cellOff[c + 1]; k++) fn(cellNodes[k]);
      }
    }
  }

  // Edge index by column: edges spanning at most EDGE_SPAN grid columns sorted by the column
  // of their left end (CSR), longer ones in a list of their own that every frame tests.
  const EDGE_SPAN = 4;
  const colOf = (wx) => Math.max(0, Math.min(gw - 1, Math.floor((wx - bounds.x0) / CW)));
  const edgeCol = new Int32Array(g.m);
  const colOff = new Uint32Array(gw + 1);
  let nLong = 0;
  for (let p = 0; p < g.m; p++) {
    const xa = g.x[g.src[p]] + NODE_W / 2, xb = g.x[g.dst[p]] - NODE_W / 2;
    const c0 = colOf(Math.min(xa, xb)), c1 = colOf(Math.max(xa, xb));
    if (c1 - c0 > EDGE_SPAN) { edgeCol[p] = -1; nLong++; } else { edgeCol[p] = c0; colOff[c0 + 1]++; }
  }
  for (let c = 0; c < gw; c++) colOff[c + 1] += colOff[c];
  const edgeOrder = new Uint32Array(g.m);
  {
    const at = colOff.slice(0, gw);
    let l = 0;
    for (let p = 0; p < g.m; p++) {
      if (edgeCol[p] < 0) edgeOrder[l++] = p; else edgeOrder[nLong + at[edgeCol[p]]++] = p;
    }
  }
  // Ranges [from, to) of edgeOrder holding every edge that may cross world x in [x0, x1].
  function edgeRanges(x0, x1) {
    const c0 = Math.max(0, colOf(x0) - EDGE_SPAN), c1 = colOf(x1);
    return [0, nLong, nLong + colOff[c0], nLong + colOff[c1 + 1]];
  }

  // Per-frame "already drawn" sets for the far-out level of detail: device pixels taken by
  // a node mark, and rounded edge end points (open addressing, cleared by an epoch).
  const seen = {
    w: 0, h: 0, pix: new Uint32Array(0), keys: new Uint32Array(2 << 19),
    stamp: new Uint32Array(1 << 19), epoch: 0, used: 0,
    reset(w, h) {
      const need = Math.ceil(w) * Math.ceil(h);
      if (this.pix.length < need) this.pix = new Uint32Array(need);
      this.w = Math.ceil(w);
      this.h = Math.ceil(h);
      this.used = 0;
      if (++this.epoch === 0xffffffff) { this.epoch = 1; this.stamp.fill(0); this.pix.fill(0); }
    },
    pixel(X, Y) {
      const xi = X | 0, yi = Y | 0;
      if (xi < 0 || yi < 0 || xi >= this.w || yi >= this.h) return true;
      const k = yi * this.w + xi;
      if (this.pix[k] === this.epoch) return false;
      this.pix[k] = this.epoch;
      return true;
    },
    edge(X1, Y1, X2, Y2) {
      if (this.used > (3 << 17)) return true;  // table three-quarters full: draw the rest
      const a = ((X1 + 0.5) & 0xffff) | (((Y1 + 0.5) & 0xffff) << 16);
      const b = ((X2 + 0.5) & 0xffff) | (((Y2 + 0.5) & 0xffff) << 16);
      let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca6b)) >>> 13;
      for (;;) {
        if (this.stamp[h] !== this.epoch) {
          this.stamp[h] = this.epoch;
          this.keys[2 * h] = a;
          this.keys[2 * h + 1] = b;
          this.used++;
          return true;
        }
        if (this.keys[2 * h] === a >>> 0 && this.keys[2 * h + 1] === b >>> 0) return false;
        h = (h + 1) & ((1 << 19) - 1);
      }
    },
  };

  /**
   * Draws the scene for view v on a context of device size (w, h). With a `budget` (device
   * pixels of edge length), gives up before drawing anything and returns -1 when the edges
   * would cost more; else returns the number of nodes drawn.
   */
  function drawScene(c, w, h, v, dpr, budget) {
    const s = v.s * dpr;
    const px = 1 / s;  // one device pixel in world units
    const wx0 = -v.tx * dpr / s, wy0 = -v.ty * dpr / s, wx1 = wx0 + w / s, wy1 = wy0 + h / s;
    const hw = NODE_W / 2, hh = NODE_H / 2;
    const mask = st.mask, nodeHl = st.nodeHl, pairHl = st.pairHl, matchHl = st.matchHl;
    const x = g.x, y = g.y, src = g.src, dst = g.dst;
    const U = st.units, hidden = U ? U.hidden : null;

    // Edges: one path per batch; culled by their bounding box. Far out (nodes under 3 device
    // pixels) an edge shorter than 1.5 pixels is left out (its nodes' marks cover it) and an
    // edge whose rounded device end points were drawn already is drawn once: the work is
    // bounded by the screen, not by the graph.
    const nodePx = NODE_H * s, far = nodePx < 3;
    const ox = v.tx * dpr, oy = v.ty * dpr;
    if (far) seen.reset(w, h);
    const arrows = nodePx >= 14, al = 7 * px;
    const path = new Path2D(), longPath = new Path2D();
    const longPx = Math.max(w, h) * 0.75;  // longer edges are drawn fainter
    let hlEdges = 0, length = 0;
    const ranges = edgeRanges(wx0, wx1);
    for (let ri = 0; ri < 4; ri += 2) for (let k = ranges[ri]; k < ranges[ri + 1]; k++) {
      const p = edgeOrder[k];
      if (!mask[p]) continue;
      const a = src[p], b = dst[p];
      if (hidden && (hidden[a] || hidden[b])) continue;
      const x1 = x[a] + hw, x2 = x[b] - hw, y1 = y[a], y2 = y[b];
      if ((x1 < x2 ? x2 : x1) < wx0 || (x1 < x2 ? x1 : x2) > wx1 ||
          (y1 < y2 ? y2 : y1) < wy0 || (y1 < y2 ? y1 : y2) > wy1) continue;
      if (pairHl && pairHl[p]) { hlEdges++; continue; }
      if (far) {
        const X1 = x1 * s + ox, Y1 = y1 * s + oy, X2 = x2 * s + ox, Y2 = y2 * s + oy;
        if (Math.abs(X2 - X1) < 1.5 && Math.abs(Y2 - Y1) < 1.5) continue;
        if (!seen.edge(X1, Y1, X2, Y2)) continue;
      }
      if (budget) {
        length += Math.abs(x2 - x1) + Math.abs(y2 - y1);
        if (length * s > budget) return -1;
      }
      const into = (Math.abs(x2 - x1) + Math.abs(y2 - y1)) * s > longPx ? longPath : path;
      into.moveTo(x1, y1);
      into.lineTo(x2, y2);
      if (arrows) arrowHead(into, x1, y1, x2, y2, al);
    }
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.globalAlpha = 1;
    c.fillStyle = '#ffffff';
    c.fillRect(0, 0, w, h);
    c.setTransform(s, 0, 0, s, ox, oy);
    const unitMarks = U ? U.marks(st) : null;
    if (U) drawUnitFrames(c, U, px, wx0, wy0, wx1, wy1);
    c.lineWidth = px * (nodePx > 14 ? 1.2 : 0.9);
    c.strokeStyle = nodeHl ? EDGE_FAINT : EDGE_COLOUR;
    c.globalAlpha = far ? 0.6 : 1;
    c.stroke(path);
    c.globalAlpha = far ? 0.3 : 0.35;
    c.stroke(longPath);
    c.globalAlpha = 1;
    if (hlEdges) {
      c.lineWidth = px * 2;
      for (const code of [1, 2, 3, 4, 5]) {
        c.strokeStyle = HL_COLOURS[code];
        c.beginPath();
        for (let ri = 0; ri < 4; ri += 2) for (let k = ranges[ri]; k < ranges[ri + 1]; k++) {
          const p = edgeOrder[k];
          if (pairHl[p] !== code || !mask[p] && code < 3) continue;
          const a = src[p], b = dst[p];
          if (hidden && (hidden[a] || hidden[b])) continue;
          const x1 = x[a] + hw, x2 = x[b] - hw, y1 = y[a], y2 = y[b];
          if ((x1 < x2 ? x2 : x1) < wx0 || (x1 < x2 ? x1 : x2) > wx1 ||
              (y1 < y2 ? y2 : y1) < wy0 || (y1 < y2 ? y1 : y2) > wy1) continue;
          c.moveTo(x1, y1);
          c.lineTo(x2, y2);
          if (arrows) arrowHead(c, x1, y1, x2, y2, al);
        }
        c.stroke();
      }
    }

    if (U) drawUnitBoxes(c, U, unitMarks, s, px, wx0, wy0, wx1, wy1, arrows, al);

    // Nodes: visible ones bucketed by colour (and dimmed or not), one fill per bucket. Far
    // out, one mark per device pixel (the first node there; highlighted ones always).
    const minSide = 2 * px;
    const rw = Math.max(NODE_W, minSide), rh = Math.max(NODE_H, minSide);
    const pal = st.palette, col = st.colour;
    const paths = new Array(pal.length * 2);
    const visible = [];
    forNodesIn(wx0 - hw, wy0 - hh, wx1 + hw, wy1 + hh, (i) => {
      const xi = x[i], yi = y[i];
      if (xi + hw < wx0 || xi - hw > wx1 || yi + hh < wy0 || yi - hh > wy1) return;
      if (hidden && hidden[i]) return;
      const lit = nodeHl && nodeHl[i];
      if (far && !lit && !(matchHl && matchHl[i]) && !seen.pixel(xi * s + ox, yi * s + oy)) return;
      const k = col[i] * 2 + (nodeHl && !lit ? 1 : 0);
      (paths[k] || (paths[k] = new Path2D())).rect(xi - rw / 2, yi - rh / 2, rw, rh);
      visible.push(i);
    });
    for (let k = 0; k < paths.length; k++) {
      if (!paths[k]) continue;
      c.globalAlpha = k & 1 ? 0.22 : 1;
      c.fillStyle = pal[k >> 1];
      c.fill(paths[k]);
    }
    c.globalAlpha = 1;
    if (nodePx >= 6) {
      c.lineWidth = px;
      c.strokeStyle = '#6b7280';
      c.beginPath();
      for (const i of visible) c.rect(x[i] - hw, y[i] - hh, NODE_W, NODE_H);
      c.stroke();
    }
    if (nodeHl) {  // outline highlighted nodes in their relation's colour
      c.lineWidth = px * 2;
      for (const code of [1, 2, 3, 4, 5]) {
        c.strokeStyle = HL_COLOURS[code];
        c.beginPath();
        let any = false;
        for (const i of visible) {
          if (nodeHl[i] !== code) continue;
          c.rect(x[i] - rw / 2 - px, y[i] - rh / 2 - px, rw + 2 * px, rh + 2 * px);
          any = true;
        }
        if (any) c.stroke();
      }
    }
    if (matchHl) {  // search matches: a yellow frame, also far out
      c.lineWidth = px * 2.5;
      c.strokeStyle = MATCH_COLOUR;
      c.beginPath();
      for (const i of visible) {
        if (matchHl[i]) c.rect(x[i] - rw / 2 - 2 * px, y[i] - rh / 2 - 2 * px, rw + 4 * px, rh + 4 * px);
      }
      c.stroke();
    }
    // The selection's direct neighbours (full graph) and the edges to them, outlined.
    const nb = st.selected >= 0 ? st.neighbours : null;
    if (nb) {
      const sel = st.selected;
      c.lineWidth = px * 1.8;
      [nb.preds, nb.succs].forEach((list, side) => {
        c.strokeStyle = NEIGHBOUR_COLOURS[side];
        c.beginPath();
        for (const j of list) {
          if (hidden && hidden[j]) continue;  // its box's arrow shows the pair
          if (side === 0) { c.moveTo(x[j] + hw, y[j]); c.lineTo(x[sel] - hw, y[sel]); }
          else { c.moveTo(x[sel] + hw, y[sel]); c.lineTo(x[j] - hw, y[j]); }
          c.rect(x[j] - rw / 2 - px, y[j] - rh / 2 - px, rw + 2 * px, rh + 2 * px);
        }
        c.stroke();
      });
    }
    // Labels once readable: "id · kernel" (kernel names shortened), cut to the box.
    if (st.labels && nodePx >= 13 && visible.length < 6000) {
      const font = Math.min(13, nodePx * 0.55);
      c.setTransform(1, 0, 0, 1, 0, 0);
      c.font = font + 'px system-ui, sans-serif';
      c.fillStyle = '#111';
      c.textBaseline = 'middle';
      const maxChars = Math.max(1, Math.floor((NODE_W * s - 8) / (font * 0.56)));
      for (const i of visible) {
        let t = boxLabel(g, i);
        if (t.length > maxChars) t = t.slice(0, Math.max(1, maxChars - 1)) + '\u2026';
        c.fillText(t, (x[i] - hw) * s + v.tx * dpr + 4, y[i] * s + v.ty * dpr);
      }
      c.setTransform(s, 0, 0, s, v.tx * dpr, v.ty * dpr);
    }
    const boxLabels = U && st.labels ? drawUnitLabels(c, U, unitMarks, s, ox, oy, wx0, wy0, wx1, wy1) : 0;
    if (c === ctx) r.unitLabelsDrawn = boxLabels;  // the screen's, not the overview's
    c.setTransform(s, 0, 0, s, ox, oy);
    // Selection marks on top, at least a few pixels large.
    const mark = (i, colour) => {
      if (i < 0) return;
      const pad = 3 * px;
      c.lineWidth = 3 * px;
      c.strokeStyle = colour;
      const mw = Math.max(rw, 8 * px), mh = Math.max(rh, 8 * px);
      c.strokeRect(x[i] - mw / 2 - pad, y[i] - mh / 2 - pad, mw + 2 * pad, mh + 2 * pad);
    };
    mark(st.second, '#7b1fa2');
    mark(st.selected, '#d93025');
    return visible.length;
  }

  // Open groups: a light frame each (deeper ones a shade darker), under everything else.
  function drawUnitFrames(c, U, px, wx0, wy0, wx1, wy1) {
    c.lineWidth = px;
    c.strokeStyle = UNIT_FRAME;
    for (const id of U.drawn) {
      if (!U.open[id]) continue;
      const u = U.units[id];
      if (u.x1 < wx0 || u.x0 > wx1 || u.y1 < wy0 || u.y0 > wy1) continue;
      c.fillStyle = UNIT_FILLS[u.depth % UNIT_FILLS.length];
      c.fillRect(u.x0, u.y0, u.x1 - u.x0, u.y1 - u.y0);
      c.strokeRect(u.x0, u.y0, u.x1 - u.x0, u.y1 - u.y0);
    }
  }
  // Collapsed groups: a filled box each, with its marks (search matches, highlights), and the
  // aggregated arrows between boxes and nodes (wider the more pairs they carry).
  function drawUnitBoxes(c, U, marks, s, px, wx0, wy0, wx1, wy1, arrows, al) {
    for (const id of U.drawn) {
      if (U.open[id]) continue;
      const u = U.units[id];
      if (u.x1 < wx0 || u.x0 > wx1 || u.y1 < wy0 || u.y0 > wy1) continue;
      const w = u.x1 - u.x0, h = u.y1 - u.y0;
      c.fillStyle = unitFill(u.kind, st.nodeHl && !marks.hl[id]);
      c.fillRect(u.x0, u.y0, w, h);
      c.lineWidth = px * 1.2;
      c.strokeStyle = UNIT_BORDER;
      c.strokeRect(u.x0, u.y0, w, h);
      if (marks.hl[id]) {
        c.lineWidth = px * 3;
        c.strokeStyle = HL_COLOURS[marks.hl[id]];
        c.strokeRect(u.x0 - 2 * px, u.y0 - 2 * px, w + 4 * px, h + 4 * px);
      }
      if (marks.matches[id]) {
        c.lineWidth = px * 3;
        c.strokeStyle = MATCH_COLOUR;
        c.strokeRect(u.x0 - 5 * px, u.y0 - 5 * px, w + 10 * px, h + 10 * px);
      }
    }
    // The arrows on top: a wrapped row's arrow runs in the gap between the rows.
    const A = U.agg, out = 10 * px;
    const plain = new Path2D();
    const lit = {};
    for (let k = 0; k < A.n; k++) {
      const pts = U.route(k, out);
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let q = 0; q < pts.length; q += 2) {
        x0 = Math.min(x0, pts[q]); x1 = Math.max(x1, pts[q]);
        y0 = Math.min(y0, pts[q + 1]); y1 = Math.max(y1, pts[q + 1]);
      }
      if (x1 < wx0 || x0 > wx1 || y1 < wy0 || y0 > wy1) continue;
      const code = marks.aggHl[k];
      const into = code ? (lit[code] || (lit[code] = new Path2D())) : plain;
      into.moveTo(pts[0], pts[1]);
      for (let q = 2; q < pts.length; q += 2) into.lineTo(pts[q], pts[q + 1]);
      const n = pts.length;
      if (arrows || (x1 - x0 + y1 - y0) * s > 60) {
        arrowHead(into, pts[n - 4], pts[n - 3], pts[n - 2], pts[n - 1], Math.max(al, 8 * px));
      }
    }
    c.lineWidth = px * 1.4;
    c.strokeStyle = st.nodeHl ? EDGE_FAINT : UNIT_EDGE;
    c.stroke(plain);
    c.lineWidth = px * 2.5;
    for (const code in lit) { c.strokeStyle = HL_COLOURS[code]; c.stroke(lit[code]); }
  }
  // Labels of boxes in screen pixels: a collapsed box its title, what it holds and its search
  // matches; an open one its title in its header row; an arrow carrying several pairs their
  // count. Returns how many box labels were drawn.
  function drawUnitLabels(c, U, marks, s, ox, oy, wx0, wy0, wx1, wy1) {
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.textBaseline = 'top';
    let drawn = 0;
    const fit = (t, room, font) => {
      const max = Math.floor(room / (font * 0.56));
      return t.length <= max ? t : max < 2 ? '' : t.slice(0, max - 1) + '\u2026';
    };
    for (const id of U.drawn) {
      const u = U.units[id];
      if (u.x1 < wx0 || u.x0 > wx1 || u.y1 < wy0 || u.y0 > wy1) continue;
      const X = u.x0 * s + ox, Y = u.y0 * s + oy, W = (u.x1 - u.x0) * s, H = (u.y1 - u.y0) * s;
      if (U.open[id]) {
        const font = Math.min(13, UNIT_HEADER * s * 0.6);
        if (font < 8 || W < 40) continue;
        c.font = font + 'px system-ui, sans-serif';
        c.fillStyle = '#4b5563';
        c.fillText(fit(U.title(id) + '  ' + U.detail(id), W - 10, font), X + 5, Y + (UNIT_HEADER * s - font) / 2);
        continue;
      }
      if (W < 36 || H < 14) continue;
      const font = Math.max(9, Math.min(14, H / 4.2, W / 7));
      c.font = 'bold ' + font + 'px system-ui, sans-serif';
      c.fillStyle = '#111827';
      c.fillText(fit(U.title(id), W - 8, font), X + 4, Y + 3);
      drawn++;
      if (H >= font * 2.6) {
        c.font = font * 0.9 + 'px system-ui, sans-serif';
        c.fillStyle = '#374151';
        c.fillText(fit(U.detail(id), W - 8, font * 0.9), X + 4, Y + 3 + font * 1.25);
      }
      if (marks.matches[id] && H >= font * 3.8) {
        c.fillStyle = '#8a5a00';
        c.fillText(fit(marks.matches[id].toLocaleString('en-US') + ' match' +
          (marks.matches[id] === 1 ? '' : 'es'), W - 8, font * 0.9), X + 4, Y + 3 + font * 2.4);
      }
    }
    const A = U.agg;
    c.font = '11px system-ui, sans-serif';
    c.textBaseline = 'middle';
    for (let k = 0; k < A.n; k++) {
      if (A.count[k] < 2) continue;
      const pts = U.route(k, 10 / s), q = pts.length > 4 ? 4 : 0;  // the middle segment
      const X1 = pts[q] * s + ox, Y1 = pts[q + 1] * s + oy, X2 = pts[q + 2] * s + ox, Y2 = pts[q + 3] * s + oy;
      if (Math.abs(X2 - X1) + Math.abs(Y2 - Y1) < 50) continue;
      const mx = (X1 + X2) / 2, my = (Y1 + Y2) / 2;
      if (mx < 0 || my < 0 || mx > c.canvas.width || my > c.canvas.height) continue;
      const t = '\u00d7' + A.count[k].toLocaleString('en-US'), tw = t.length * 6.4 + 6;
      c.fillStyle = 'rgba(255,255,255,0.9)';
      c.fillRect(mx - tw / 2, my - 8, tw, 16);
      c.fillStyle = '#374151';
      c.fillText(t, mx - tw / 2 + 3, my);
    }
    return drawn;
  }

  function arrowHead(c, x1, y1, x2, y2, len) {
    const dx = x2 - x1, dy = y2 - y1, d = Math.hypot(dx, dy) || 1;
    const ux = dx / d, uy = dy / d;
    c.moveTo(x2 - len * ux - len * 0.45 * uy, y2 - len * uy + len * 0.45 * ux);
    c.lineTo(x2, y2);
    c.lineTo(x2 - len * ux + len * 0.45 * uy, y2 - len * uy - len * 0.45 * ux);
  }

  function fitView(w, h, pad) {
    const bw = bounds.x1 - bounds.x0, bh = bounds.y1 - bounds.y0;
    const s = Math.min((w - 2 * pad) / bw, (h - 2 * pad) / bh, 1.25);
    return { s, tx: (w - bw * s) / 2 - bounds.x0 * s, ty: (h - bh * s) / 2 - bounds.y0 * s };
  }

  // The minimap's scales: uniform, except that a graph far wider than tall (or taller than
  // wide) is stretched across so that its structure stays visible.
  function minimapFit(w, h, pad) {
    const bw = bounds.x1 - bounds.x0, bh = bounds.y1 - bounds.y0;
    const fx = (w - 2 * pad) / bw, fy = (h - 2 * pad) / bh, u = Math.min(fx, fy);
    let sx = u, sy = u;
    if (fy > 6 * fx) sy = Math.max(u, 0.5 * fy);
    if (fx > 6 * fy) sx = Math.max(u, 0.5 * fx);
    return { sx, sy, tx: (w - bw * sx) / 2 - bounds.x0 * sx, ty: (h - bh * sy) / 2 - bounds.y0 * sy };
  }

  /** Renders the whole graph once into an offscreen canvas (aspect of the graph). */
  function buildOverview() {
    const bw = bounds.x1 - bounds.x0, bh = bounds.y1 - bounds.y0;
    let s = OVERVIEW_MAX_SIDE / Math.max(bw, bh);
    if (bw * bh * s * s > OVERVIEW_MAX_AREA) s = Math.sqrt(OVERVIEW_MAX_AREA / (bw * bh));
    s = Math.min(s, 1);
    const w = Math.max(1, Math.ceil(bw * s)), h = Math.max(1, Math.ceil(bh * s));
    const oc = r.overview && r.overview.canvas.width === w && r.overview.canvas.height === h
      ? r.overview.canvas : document.createElement('canvas');
    oc.width = w;
    oc.height = h;
    const v = { s, tx: -bounds.x0 * s, ty: -bounds.y0 * s };
    const saved = st.labels;
    st.labels = false;
    drawScene(oc.getContext('2d', { alpha: false }), w, h, v, 1);
    st.labels = saved;
    r.overview = { canvas: oc, view: v };
    r.overviewStale = false;
    const mv = minimapFit(minimap.width, minimap.height, 2);
    r.minimapView = mv;
    const base = document.createElement('canvas');
    base.width = minimap.width;
    base.height = minimap.height;
    const bc = base.getContext('2d');
    bc.fillStyle = '#fff';
    bc.fillRect(0, 0, base.width, base.height);
    bc.drawImage(oc, mv.tx + bounds.x0 * mv.sx, mv.ty + bounds.y0 * mv.sy, bw * mv.sx, bh * mv.sy);
    r.minimapBase = base;
  }

  function drawCached(v) {
    const dpr = r.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    for (const layer of [r.overview, r.snapshot]) {
      if (!layer) continue;
      const lv = layer.view, k = v.s * (layer === r.overview ? dpr : 1) / lv.s;
      const ox = layer === r.overview ? v.tx * dpr - lv.tx * k : dpr * (v.tx - lv.tx * k);
      const oy = layer === r.overview ? v.ty * dpr - lv.ty * k : dpr * (v.ty - lv.ty * k);
      ctx.setTransform(k, 0, 0, k, ox, oy);
      ctx.imageSmoothingEnabled = k < 1;
      ctx.drawImage(layer.canvas, 0, 0);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
  }

  // A full-quality frame; with a budget it may decline (returns false) to keep motion smooth.
  function drawQuality(budget) {
    const t0 = performance.now();
    const drawn = drawScene(ctx, canvas.width, canvas.height, r.view, r.dpr, budget);
    if (drawn < 0) return false;
    r.visibleNodes = drawn;
    if (!r.snapshot) {
      r.snapshot = { canvas: document.createElement('canvas'), view: null };
    }
    const sc = r.snapshot.canvas;
    if (sc.width !== canvas.width || sc.height !== canvas.height) {
      sc.width = canvas.width;
      sc.height = canvas.height;
    }
    sc.getContext('2d').drawImage(canvas, 0, 0);  // also makes the frame rasterise now
    r.snapshot.view = { ...r.view };
    r.lastQualityMs = performance.now() - t0;
    return true;
  }

  function drawMinimap() {
    const mv = r.minimapView;
    mctx.setTransform(1, 0, 0, 1, 0, 0);
    if (r.minimapBase) mctx.drawImage(r.minimapBase, 0, 0);
    if (!mv) return;
    const v = r.view;
    const x0 = (-v.tx / v.s) * mv.sx + mv.tx, y0 = (-v.ty / v.s) * mv.sy + mv.ty;
    const w = (r.W / v.s) * mv.sx, h = (r.H / v.s) * mv.sy;
    mctx.strokeStyle = '#d93025';
    mctx.lineWidth = 1.5;
    const cx0 = Math.max(1, x0), cy0 = Math.max(1, y0);
    const cx1 = Math.min(minimap.width - 1, x0 + Math.max(w, 2));
    const cy1 = Math.min(minimap.height - 1, y0 + Math.max(h, 2));
    if (cx1 > cx0 && cy1 > cy0) mctx.strokeRect(cx0, cy0, cx1 - cx0, cy1 - cy0);
  }

  /** Draws one frame now: cached while moving (when full quality is slow), else sharp. */
  r.draw = function (forceQuality) {
    const t0 = performance.now();
    const moving = !forceQuality && t0 - r.lastInput < IDLE_MS;
    r.usedCache = false;
    // A stale overview (the colours or the highlight changed since it was drawn) would show
    // the old scene while the view moves: draw sharply until it is rebuilt.
    if (!moving || !r.overview || r.overviewStale) {
      drawQuality(0);
    } else if (r.lastQualityMs > FAST_MS || !drawQuality(MOVING_EDGE_BUDGET)) {
      drawCached(r.view);
      r.usedCache = true;
    }
    drawMinimap();
    r.lastFrameMs = performance.now() - t0;
    if (r.onFrame) r.onFrame();
    if (r.usedCache) {
      clearTimeout(r.idleTimer);
      r.idleTimer = setTimeout(() => r.request(), IDLE_MS + 5);
    }
    return r.lastFrameMs;
  };
  /** Asks for a frame on the next animation frame (coalesced). */
  r.request = function () {
    if (r.pending) return;
    r.pending = true;
    requestAnimationFrame(() => { r.pending = false; r.draw(false); });
  };
  /** The scene changed (mode, colours, highlight): caches are stale. */
  r.stateVersion = 0;  // bumped when the scene changes (the timeline redraws then)
  r.invalidate = function () {
    r.stateVersion++;
    r.snapshot = null;
    r.overviewStale = true;
    clearTimeout(r.overviewTimer);
    r.overviewTimer = setTimeout(() => { buildOverview(); r.request(); }, IDLE_MS * 2);
    r.request();
  };
  r.buildOverview = buildOverview;
  r.resize = function () {
    const rect = canvas.getBoundingClientRect();
    r.dpr = window.devicePixelRatio || 1;
    r.W = Math.max(1, rect.width);
    r.H = Math.max(1, rect.height);
    canvas.width = Math.round(r.W * r.dpr);
    canvas.height = Math.round(r.H * r.dpr);
    r.snapshot = null;
  };
  r.fit = function () {
    r.view = fitView(Math.max(100, r.W - r.rightInset - r.leftInset), r.H, 20);
    r.view.tx += r.leftInset;
    r.touch();
  };
  /** Brings the world box [x0, x1] x [y0, y1] (node centres) into view, zoomed to fit it (not
   *  beyond a box's full size), between the side panels. O(1). */
  r.fitBox = function (x0, y0, x1, y1) {
    const w = Math.max(100, r.W - r.rightInset - r.leftInset);
    const bw = x1 - x0 + 2 * NODE_W, bh = y1 - y0 + 4 * NODE_H;
    const s = Math.min((w - 40) / bw, (r.H - 40) / bh, 1.25);
    r.view = { s, tx: r.leftInset + w / 2 - (x0 + x1) / 2 * s, ty: r.H / 2 - (y0 + y1) / 2 * s };
    r.touch();
  };
  /**
   * The first view: the whole graph when its labels can be read at that scale; else its
   * start at the zoom where labels read (READABLE_ZOOM): a long graph (a decode chain,
   * thousands of layers) at its first layers, a tall one (thousands of independent requests
   * side by side) at its top, each centred along the side that fits. Returns whether the
   * whole graph shows.
   */
  r.initialView = function () {
    const w = r.W - r.rightInset - r.leftInset;
    const all = fitView(w, r.H, 20);
    all.tx += r.leftInset;
    if (all.s >= READABLE_ZOOM || st.units && boxesReadable(all.s)) {
      r.view = all;
      return true;
    }
    const s = READABLE_ZOOM;
    const bw = (bounds.x1 - bounds.x0) * s, bh = (bounds.y1 - bounds.y0) * s;
    // Along a side that does not fit, start where the first nodes are: the topmost node of the
    // first screenful of layers (the layout need not fill the bounding box's corner), and the
    // leftmost node of the first screenful of rows.
    let top = bounds.y0, left = bounds.x0;
    if (bh > r.H - 40) {
      const xEnd = (bw <= w - 40 ? bounds.x1 : bounds.x0 + (w - 40) / s);
      top = Infinity;
      for (let i = 0; i < g.n; i++) if (g.x[i] <= xEnd && g.y[i] < top) top = g.y[i];
      top = (top === Infinity ? bounds.y0 : top - NODE_H);
    }
    if (bw > w - 40) {
      const yEnd = top + (r.H - 40) / s;
      let first = Infinity;
      for (let i = 0; i < g.n; i++) if (g.y[i] >= top && g.y[i] <= yEnd && g.x[i] < first) first = g.x[i];
      left = first === Infinity ? bounds.x0 : first - NODE_W;
    }
    r.view = {
      s,
      tx: r.leftInset + (bw <= w - 40 ? (w - bw) / 2 - bounds.x0 * s : 20 - left * s),
      ty: bh <= r.H - 40 ? (r.H - bh) / 2 - bounds.y0 * s : 20 - top * s,
    };
    return false;
  };
  // Whether the collapsed boxes (half of them at least) take a label at scale s.
  function boxesReadable(s) {
    const U = st.units, sizes = [];
    for (const id of U.drawn) {
      if (U.open[id]) continue;
      const u = U.units[id];
      sizes.push(Math.min((u.x1 - u.x0) * s / 36, (u.y1 - u.y0) * s / 18));
    }
    if (!sizes.length) return false;
    sizes.sort((a, b) => a - b);
    return sizes[sizes.length >> 1] >= 1;
  }
  /** Zooms so that the graph's height fills the view, keeping the centre's x. */
  r.fitHeight = function () {
    const v = r.view, cx = (r.W / 2 - v.tx) / v.s;
    const s = Math.min(1.25, (r.H - 40) / (bounds.y1 - bounds.y0));
    v.s = s;
    v.tx = r.W / 2 - cx * s;
    v.ty = (r.H - (bounds.y1 - bounds.y0) * s) / 2 - bounds.y0 * s;
    r.touch();
  };
  r.touch = function () {
    r.lastInput = performance.now();
    r.request();
  };
  r.panBy = function (dx, dy) {
    r.view.tx += dx;
    r.view.ty += dy;
    r.touch();
  };
  r.zoomAt = function (factor, sx, sy) {
    const v = r.view;
    const s = Math.min(40, Math.max(1e-5, v.s * factor));
    const f = s / v.s;
    v.tx = sx - (sx - v.tx) * f;
    v.ty = sy - (sy - v.ty) * f;
    v.s = s;
    r.touch();
  };
  /** Centres node i, zooming in so that it is legible when the view is far out. */
  r.centreOn = function (i, zoom) {
    const v = r.view;
    if (zoom && NODE_H * v.s < 16) v.s = 24 / NODE_H;
    v.tx = r.leftInset + (r.W - r.rightInset - r.leftInset) / 2 - g.x[i] * v.s;
    v.ty = r.H / 2 - g.y[i] * v.s;
    r.touch();
  };
  /** Centres the view on the minimap point (mx, my). */
  r.minimapJump = function (mx, my) {
    const mv = r.minimapView;
    if (!mv) return;
    const wx = (mx - mv.tx) / mv.sx, wy = (my - mv.ty) / mv.sy;
    r.view.tx = r.W / 2 - wx * r.view.s;
    r.view.ty = r.H / 2 - wy * r.view.s;
    r.touch();
  };
  /** The node under the CSS pixel (sx, sy), or -1. Tolerance: 4 px. O(cells nearby). */
  r.hitTest = function (sx, sy) {
    const v = r.view;
    const wx = (sx - v.tx) / v.s, wy = (sy - v.ty) / v.s, tol = 4 / v.s;
    const hw = Math.max(NODE_W / 2, 1 / v.s) + tol, hh = Math.max(NODE_H / 2, 1 / v.s) + tol;
    let best = -1, bestD = Infinity;
    if (hw > CW * 40) return -1;
    const hidden = st.units ? st.units.hidden : null;
    forNodesIn(wx - hw, wy - hh, wx + hw, wy + hh, (i) => {
      if (hidden && hidden[i]) return;
      const dx = Math.abs(g.x[i] - wx), dy = Math.abs(g.y[i] - wy);
      if (dx > hw || dy > hh) return;
      const d = dx * dx + dy * dy;
      if (d < bestD) { bestD = d; best = i; }
    });
    return best;
  };
  /** The group box (collapsed) or open group's header under the CSS pixel (sx, sy), or -1. */
  r.hitUnit = function (sx, sy) {
    if (!st.units) return -1;
    const v = r.view;
    return st.units.hit((sx - v.tx) / v.s, (sy - v.ty) / v.s, 2 / v.s);
  };
  r.nodeLegible = () => NODE_H * r.view.s >= 13;
  return r;
}
