'use strict';
// The explorer's graph model: decodes the embedded data (docs/explorer.md, "Data format")
// into typed arrays and answers the graph questions (search, neighbours, reachability,
// paths, critical path). No DOM access here.

const KIND_NAMES = ['submit', 'dummy', 'alloc'];
const CORE_NAMES = ['none', 'aic', 'aiv', 'mix'];
const SOURCE_NAMES = ['creator', 'tensormap', 'explicit', 'other'];
const MODES = ['full', 'reduced', 'reduced_dataflow', 'retained'];
const MODE_BIT = { reduced: 1, reduced_dataflow: 2, retained: 4 };
const SEARCH_LIMIT = 1000;

const ARG_TYPES = { I: 'INPUT', O: 'OUTPUT', B: 'INOUT', E: 'OUTPUT_EXISTING', U: 'UNKNOWN' };

/**
 * Builds the model from the parsed JSON. `readDetails` returns the parsed details object
 * (the second script element); it is called once, when details are first needed. O(V + E).
 */
function buildModel(d, readDetails) {
  const n = d.ids.length;
  const m = d.pairs.length / 2;
  const g = {
    data: d, n, m, name: d.name, rings: d.rings, hbg: !!d.hbg, cycle: d.cycle, details: d.details,
    ids: d.ids, names: d.names, overlaps: [], dtypes: [], det: null, erows: null,
    readDetails, rowOff: null,
    x: Float32Array.from(d.x), y: Float32Array.from(d.y),
    kind: new Uint8Array(n), core: new Uint8Array(n), kern: Int32Array.from(d.kern),
    block: new Map(), manual: new Uint8Array(n),
    src: new Uint32Array(m), dst: new Uint32Array(m), cls: new Uint8Array(m),
    outOff: new Uint32Array(n + 1), inOff: new Uint32Array(n + 1), inPair: new Uint32Array(m),
    idIndex: null, ringCache: null, displayCache: new Array(n),
    masks: {}, counts: d.counts,
    // The perf sidecar's timings (d.dur, d.t0 in µs, -1 for a task without records; d.nb
    // records merged), when the capture has one.
    perf: d.perf || null,
    dur: d.dur ? Float64Array.from(d.dur) : null,
    t0: d.t0 ? Float64Array.from(d.t0) : null,
    nb: d.nb ? Uint32Array.from(d.nb) : null,
    // Weight of a task on the critical path: 1 per task, or its duration when the capture
    // carries timings (0 for a task without records).
    weight: d.dur ? Float64Array.from(d.dur, (v) => Math.max(0, v)) : null,
  };
  const kc = d.kc;
  for (let i = 0; i < n; i++) {
    const c = kc.charCodeAt(i) - 48;
    g.kind[i] = c >> 2;
    g.core[i] = c & 3;
  }
  for (let k = 0; k < d.block.length; k += 2) g.block.set(d.block[k], d.block[k + 1]);
  for (const i of d.manual) g.manual[i] = 1;
  const pairs = d.pairs;
  for (let p = 0; p < m; p++) {
    const a = pairs[2 * p], b = pairs[2 * p + 1];
    g.src[p] = a;
    g.dst[p] = b;
    g.cls[p] = d.cls.charCodeAt(p) - 48;
    g.outOff[a + 1]++;
    g.inOff[b + 1]++;
  }
  for (let i = 0; i < n; i++) {
    g.outOff[i + 1] += g.outOff[i];
    g.inOff[i + 1] += g.inOff[i];
  }
  // Pairs are sorted by (pred, succ): out-pairs of node i are outOff[i]..outOff[i+1].
  // In-pairs by a stable counting sort, so they come in pred order.
  const fill = g.inOff.slice(0, n);
  for (let p = 0; p < m; p++) g.inPair[fill[g.dst[p]]++] = p;
  return g;
}

/** Parses the details on first use (tens of ms per 100k tasks). False on pages without. */
function ensureDetails(g) {
  if (!g.details) return false;
  if (g.det) return true;
  const d = g.readDetails();
  g.overlaps = d.overlaps || [];
  g.dtypes = d.dtypes || [];
  g.erows = d.erows || [];
  g.det = d.det || [];
  const r = g.erows, rows = r.length / 3;
  g.rowOff = new Uint32Array(g.m + 1);
  for (let k = 0; k < rows; k++) g.rowOff[r[3 * k] + 1]++;
  for (let p = 0; p < g.m; p++) g.rowOff[p + 1] += g.rowOff[p];
  return true;
}

/** Per-pair 0/1 array of the pairs a mode shows. Cached; O(E) the first time. */
function modeMask(g, mode) {
  if (g.masks[mode]) return g.masks[mode];
  const mask = new Uint8Array(g.m);
  const bit = MODE_BIT[mode];
  for (let p = 0; p < g.m; p++) mask[p] = !bit || g.cycle || (g.cls[p] & bit) ? 1 : 0;
  g.masks[mode] = mask;
  return mask;
}

/** Node index of a raw decimal id string, or -1. O(1) after an O(V) first call. */
function nodeOf(g, id) {
  if (!g.idIndex) {
    g.idIndex = new Map();
    for (let i = 0; i < g.n; i++) g.idIndex.set(g.ids[i], i);
  }
  const i = g.idIndex.get(String(id).trim());
  return i === undefined ? -1 : i;
}

/** [ring, local] of a node (bits 32..39 and the low 32 bits of its id). */
function ringLocal(g, i) {
  const s = g.ids[i];
  if (s.length < 16) {
    const v = Number(s);
    return [Math.floor(v / 4294967296) & 0xff, v % 4294967296];
  }
  const v = BigInt(s);
  return [Number((v >> 32n) & 0xffn), Number(v & 0xffffffffn)];
}

/** Ring per node (for colouring), computed once. */
function rings(g) {
  if (!g.ringCache) {
    g.ringCache = new Uint8Array(g.n);
    for (let i = 0; i < g.n; i++) g.ringCache[i] = ringLocal(g, i)[0];
  }
  return g.ringCache;
}

/**
 * host_build_graph's space layout of an id, (space << 62) | (parent << 32) | local, as the
 * viewer writes it: "t5" (global), "g3t5" (sub-task 5 of parent 3), "p5" (parameter).
 */
function hbgId(s) {
  const v = BigInt(s);
  const space = Number(v >> 62n), parent = Number((v >> 32n) & 0xfffffn);
  const local = String(v & 0xffffffffn);
  if (space === 0) return 't' + local;
  if (space === 1) return 'g' + parent + 't' + local;
  if (space === 2) return 'p' + local;
  return 's3:' + s;
}

/**
 * The id as the viewer displays it: bare local, "(ring, local)" when rings are used, or the
 * host_build_graph space form (hbgId) for captures that use it. O(1), cached.
 */
function displayId(g, i) {
  let s = g.displayCache[i];
  if (s === undefined) {
    if (g.hbg) {
      s = hbgId(g.ids[i]);
    } else {
      const [r, l] = ringLocal(g, i);
      s = g.rings ? '(' + r + ', ' + l + ')' : String(l);
    }
    g.displayCache[i] = s;
  }
  return s;
}

/** The raw id of a host_build_graph display form ("t5", "g3t7", "p5"), or null. O(1). */
function hbgRawId(text) {
  const m = /^(?:t(\d+)|g(\d+)t(\d+)|p(\d+))$/i.exec(text);
  if (!m) return null;
  if (m[1] !== undefined) return BigInt(m[1]).toString();
  if (m[4] !== undefined) return ((2n << 62n) | BigInt(m[4])).toString();
  return ((1n << 62n) | (BigInt(m[2]) << 32n) | BigInt(m[3])).toString();
}

/** Kernel name of a node ('' when unknown). */
function kernelName(g, i) {
  const k = g.kern[i];
  return k >= 0 ? g.names[k] : '';
}

/** "12.34 µs" for a number of µs. */
function formatUs(v) {
  return Number(v).toLocaleString('en-US', { maximumFractionDigits: 3 }) + ' \u00b5s';
}

/** A task's duration as text ("12.34 µs"), or '' when it has no timing records. */
function durationText(g, i) {
  return g.dur && g.dur[i] >= 0 ? formatUs(g.dur[i]) : '';
}

/**
 * A kernel name short enough for a box: namespaces dropped and template arguments folded, per
 * " + " part ("pto::kernels::Matmul<float, 128>" -> "Matmul<…>"). The panel, the tooltip and
 * search keep the full name. O(length).
 */
function shortKernelName(name) {
  return String(name).split(' + ').map((part) => {
    let depth = 0, base = '', folded = false;
    for (const ch of part) {
      if (ch === '<') { if (depth++ === 0) { base += '<'; folded = true; } continue; }
      if (ch === '>' && depth > 0) { if (--depth === 0) base += '\u2026>'; continue; }
      if (depth === 0) base += ch;
    }
    if (depth !== 0) return part;  // unbalanced: not a template
    const colons = base.lastIndexOf('::');
    const short = colons >= 0 ? base.slice(colons + 2) : base;
    return folded || colons >= 0 ? short || part : part;
  }).join(' + ');
}

/** Short label for a box: "id · kernel" (or "id · alloc" / "id · dummy"), kernel shortened. */
function boxLabel(g, i) {
  const k = kernelName(g, i);
  const what = k ? shortKernelName(k) : (g.kind[i] === 0 ? '' : KIND_NAMES[g.kind[i]]);
  return what ? displayId(g, i) + ' \u00b7 ' + what : displayId(g, i);
}

/** Label: "id · kernel" (or "id · alloc" / "id · dummy"). */
function nodeLabel(g, i) {
  const k = kernelName(g, i);
  const what = k || (g.kind[i] === 0 ? '' : KIND_NAMES[g.kind[i]]);
  return what ? displayId(g, i) + ' \u00b7 ' + what : displayId(g, i);
}

/**
 * Search: a raw decimal id, "(ring, local)", "t5" / "g3t7" / "p5" (host_build_graph ids), or
 * a case-insensitive kernel-name substring
 * ("alloc" and "dummy" also match those kinds). Node indices in id order, at most `limit`
 * (default SEARCH_LIMIT); `total` says how many matched. O(V) for names, O(1) for ids.
 */
function searchNodes(g, text, limit = SEARCH_LIMIT) {
  const t = String(text).trim();
  const out = { nodes: [], total: 0 };
  if (!t) return out;
  const one = (i) => {
    if (i >= 0) { out.nodes.push(i); out.total = 1; }
    return out;
  };
  if (/^\d+$/.test(t)) {
    let i = nodeOf(g, t.replace(/^0+(?=\d)/, ''));
    if (i < 0 && !g.rings) i = nodeOf(g, t);
    if (i >= 0) return one(i);
  }
  const hbg = g.hbg ? hbgRawId(t) : null;
  if (hbg !== null) return one(nodeOf(g, hbg));
  const rl = /^\(?\s*(\d+)\s*,\s*(\d+)\s*\)?$/.exec(t);
  if (rl) {
    const id = ((BigInt(rl[1]) << 32n) | BigInt(rl[2])).toString();
    return one(nodeOf(g, id));
  }
  const q = t.toLowerCase();
  const hit = new Uint8Array(g.names.length);
  let any = false;
  g.names.forEach((name, k) => { if (name.toLowerCase().includes(q)) { hit[k] = 1; any = true; } });
  const kindHit = KIND_NAMES.map((k) => k !== 'submit' && k.startsWith(q));
  for (let i = 0; i < g.n; i++) {
    const k = g.kern[i];
    if ((any && k >= 0 && hit[k]) || kindHit[g.kind[i]]) {
      if (out.nodes.length < limit) out.nodes.push(i);
      out.total++;
    }
  }
  return out;
}

/** Direct predecessors / successors (unique pairs, full graph) in id order. O(degree). */
function predsOf(g, i) {
  const r = [];
  for (let k = g.inOff[i]; k < g.inOff[i + 1]; k++) r.push(g.src[g.inPair[k]]);
  return r;
}
function succsOf(g, i) {
  const r = [];
  for (let p = g.outOff[i]; p < g.outOff[i + 1]; p++) r.push(g.dst[p]);
  return r;
}

/**
 * Breadth-first reach from `start` along shown pairs (mask), forward or backward, up to
 * `depth` edges (0 = unlimited). Returns Int32Array of distances (-1 = not reached) and the
 * number of nodes reached. O(V + E) worst case.
 */
function reach(g, start, forward, depth, mask) {
  const dist = new Int32Array(g.n).fill(-1);
  const queue = new Uint32Array(g.n);
  let head = 0, tail = 0;
  dist[start] = 0;
  queue[tail++] = start;
  while (head < tail) {
    const u = queue[head++];
    if (depth > 0 && dist[u] >= depth) continue;
    if (forward) {
      for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) {
        const v = g.dst[p];
        if (mask[p] && dist[v] < 0) { dist[v] = dist[u] + 1; queue[tail++] = v; }
      }
    } else {
      for (let k = g.inOff[u]; k < g.inOff[u + 1]; k++) {
        const p = g.inPair[k], v = g.src[p];
        if (mask[p] && dist[v] < 0) { dist[v] = dist[u] + 1; queue[tail++] = v; }
      }
    }
  }
  return { dist, count: tail - 1 };
}

/** A shortest directed path a -> b in edges of the full graph (node indices), or null. */
function shortestPath(g, a, b) {
  const parent = new Int32Array(g.n).fill(-1);
  const queue = new Uint32Array(g.n);
  let head = 0, tail = 0;
  parent[a] = a;
  queue[tail++] = a;
  while (head < tail && parent[b] < 0) {
    const u = queue[head++];
    for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) {
      const v = g.dst[p];
      if (parent[v] < 0) { parent[v] = u; queue[tail++] = v; }
    }
  }
  if (parent[b] < 0) return null;
  const path = [b];
  for (let v = b; v !== a; v = parent[v]) path.push(parent[v]);
  return path.reverse();
}

/**
 * The critical path: the heaviest path through the full graph where a path weighs the sum
 * of its tasks' weights (1 each today, so the longest path in edges; g.weight when durations
 * exist). Node indices from source to sink, or null on a cycle. O(V + E).
 */
function criticalPath(g) {
  const indeg = new Uint32Array(g.n);
  for (let p = 0; p < g.m; p++) indeg[g.dst[p]]++;
  const best = new Float64Array(g.n), from = new Int32Array(g.n).fill(-1);
  const queue = new Uint32Array(g.n);
  let head = 0, tail = 0;
  for (let i = 0; i < g.n; i++) if (!indeg[i]) queue[tail++] = i;
  let end = -1;
  while (head < tail) {
    const u = queue[head++];
    best[u] += g.weight ? g.weight[u] : 1;
    if (end < 0 || best[u] > best[end]) end = u;
    for (let p = g.outOff[u]; p < g.outOff[u + 1]; p++) {
      const v = g.dst[p];
      if (from[v] < 0 || best[u] > best[v]) { best[v] = best[u]; from[v] = u; }
      if (--indeg[v] === 0) queue[tail++] = v;
    }
  }
  if (tail < g.n) return null;
  if (end < 0) return [];
  const path = [end];
  for (let v = end; from[v] >= 0; v = from[v]) path.push(from[v]);
  return path.reverse();
}

/** Edge rows of a pair (details pages only): {source, flags, overlap, arg, tensor}. */
function pairRows(g, p) {
  if (!ensureDetails(g)) return [];
  const r = g.erows, out = [];
  for (let k = g.rowOff[p]; k < g.rowOff[p + 1]; k++) {
    const packed = r[3 * k + 1], tensor = r[3 * k + 2];
    const flags = [];
    if (packed & 4) flags.push('wait');
    if (packed & 8) flags.push('retain');
    if (packed & 16) flags.push('other');
    const arg = packed >> 13;
    out.push({
      source: SOURCE_NAMES[packed & 3], flags, overlap: g.overlaps[(packed >> 5) & 255] || '',
      arg: arg ? arg - 1 : null, tensor: tensor >= 0 ? 'T' + tensor : tensor === -2 ? '?' : '',
    });
  }
  return out;
}

/** One edge row as the panel and the path list show it: "tensormap [wait] covered arg3 T8". */
function edgeRowText(row) {
  let t = row.source;
  if (row.flags.length) t += ' [' + row.flags.join(',') + ']';
  if (row.overlap) t += ' ' + row.overlap;
  if (row.arg !== null) t += ' arg' + row.arg;
  if (row.tensor) t += ' ' + row.tensor;
  return t;
}

/** Pair index of (a, b) in the full graph, or -1. O(log out-degree). */
function pairOf(g, a, b) {
  let lo = g.outOff[a], hi = g.outOff[a + 1];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (g.dst[mid] < b) lo = mid + 1; else hi = mid;
  }
  return lo < g.outOff[a + 1] && g.dst[lo] === b ? lo : -1;
}

/** Task details (details pages): kernel ids and the argument rows. */
function taskDetails(g, i) {
  if (!ensureDetails(g)) return null;
  const s = g.det[i];
  if (!s) return null;
  const bar = s.indexOf('|');
  const kids = s.slice(0, bar).split(',').map(Number);
  const rest = s.slice(bar + 1);
  const args = rest ? rest.split(';').map((a) => {
    const f = a.split(',');
    return { idx: f[0], type: ARG_TYPES[f[1]] || '?', tensor: f[2] ? (f[2][0] === '?' ? f[2] : 'T' + f[2]) : '',
      dtype: f[3] ? g.dtypes[Number(f[3])] || '?' : '', offset: f[4], shape: f[5] ? '[' + f[5].split('x').join(', ') + ']' : '',
      strides: f[6] ? '[' + f[6].split('x').join(', ') + ']' : '' };
  }) : [];
  return { kids, args };
}
