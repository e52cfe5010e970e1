'use strict';
// The explorer's structure outline: the repeated structure the library found
// (graph/task_groups.h; `groups` in the page data) as a tree of series ("G0 ×256"), their
// instances (in sections of at most SECTION_MAX) and the series nested in them. A click on a
// row highlights its nodes and brings them into view; selecting a task opens the rows that
// hold it. Model: explorer_data.js.

const SECTION_MAX = 1000;

/**
 * The grouping of model `g` from the page data, or null: kinds, root series and `order`, with
 * `position` (inverse of order). Series are { kind, count, begin } with absolute begins.
 * O(V + series).
 */
function buildGroups(g) {
  const d = g.data.groups;
  if (!d) return null;
  const triples = (a, base) => {
    const out = [];
    for (let k = 0; k + 2 < a.length; k += 3) out.push({ kind: a[k], count: a[k + 1], begin: base + a[k + 2] });
    return out;
  };
  const order = Uint32Array.from(d.order);
  const position = new Uint32Array(g.n);
  for (let p = 0; p < order.length; p++) position[order[p]] = p;
  return {
    kinds: d.kinds,
    series: triples(d.series, 0), order, position,
    /** Series nested in the instance starting at absolute position `start` of `kind`. */
    childrenOf(kind, start) { return triples(this.kinds[kind].children, start); },
  };
}

/**
 * The chain of { series, instance } holding node i, outermost first (empty when the node is
 * outside every series). O(depth x series per level).
 */
function groupChain(G, i) {
  const chain = [];
  const p = G.position[i];
  let list = G.series;
  for (;;) {
    const s = list.find((x) => p >= x.begin && p < x.begin + x.count * G.kinds[x.kind].size);
    if (!s) return chain;
    const instance = Math.floor((p - s.begin) / G.kinds[s.kind].size);
    chain.push({ series: s, instance });
    list = G.childrenOf(s.kind, s.begin + instance * G.kinds[s.kind].size);
  }
}

/**
 * Creates the outline over #structure. `ui` gives highlightNodes(nodes, text) (mark them and
 * bring them into view), esc(text) and label(i) (a node's display id). Returns { reveal(i),
 * rows() }.
 */
function createStructure(g, G, ui) {
  const tree = document.getElementById('structure-tree');
  const name = (s) => 'G' + s.kind;
  const sizeText = (k) => {
    const kind = G.kinds[k];
    const allocs = kind.size - kind.tasks;
    return kind.size.toLocaleString('en-US') + ' node' + (kind.size === 1 ? '' : 's') + ' each' +
      (allocs ? ' (' + allocs + ' alloc' + (allocs === 1 ? '' : 's') + ')' : '') + ': ' + kind.label;
  };
  const nodesOf = (start, end) => Array.from(G.order.subarray(start, end));
  const span = (start, end) => ui.label(G.order[start]) + ' \u2026 ' + ui.label(G.order[end - 1]);

  // One row: a toggle (when it has children), its text, and what a click on it shows.
  function row(text, start, end, expand, depth) {
    const li = document.createElement('li');
    li.style.paddingLeft = (depth * 14) + 'px';
    li.innerHTML = '<span class="tw">' + (expand ? '\u25b8' : '') + '</span><span class="txt">' +
      text + '</span>';
    li.dataset.start = start;
    li.dataset.end = end;
    li._expand = expand;
    li._depth = depth;
    return li;
  }
  function seriesRow(s, depth) {
    const size = G.kinds[s.kind].size, end = s.begin + s.count * size;
    const li = row('<b>' + name(s) + ' \u00d7' + s.count.toLocaleString('en-US') + '</b> ' +
      ui.esc(sizeText(s.kind)), s.begin, end, () => instanceRows(s, depth + 1), depth);
    li.classList.add('series');
    li.dataset.series = s.kind + ':' + s.begin;
    return li;
  }
  function instanceRows(s, depth) {
    const size = G.kinds[s.kind].size, rows = [];
    const one = (k) => {
      const start = s.begin + k * size;
      const kids = G.childrenOf(s.kind, start);
      const li = row(ui.esc(name(s) + ' #' + k + '  ' + span(start, start + size)), start, start + size,
        kids.length ? () => kids.map((c) => seriesRow(c, depth + 1)) : null, depth);
      li.classList.add('instance');
      li.dataset.instance = k;
      return li;
    };
    if (s.count <= SECTION_MAX) {
      for (let k = 0; k < s.count; k++) rows.push(one(k));
      return rows;
    }
    const sections = Math.ceil(s.count / SECTION_MAX), per = Math.ceil(s.count / sections);
    for (let first = 0; first < s.count; first += per) {
      const last = Math.min(s.count, first + per);
      const li = row(ui.esc(name(s) + ' #' + first + '\u2013' + (last - 1)), s.begin + first * size,
        s.begin + last * size, () => { const r = []; for (let k = first; k < last; k++) r.push(one(k)); return r; },
        depth);
      li.classList.add('section');
      rows.push(li);
    }
    return rows;
  }
  function toggle(li) {
    if (!li._expand) return;
    if (li._open) {
      for (const child of li._open) {
        if (child._open) toggle(child);  // closes what is open below it first
        child.remove();
      }
      li._open = null;
      li.firstChild.textContent = '\u25b8';
      return;
    }
    const kids = li._expand();
    let after = li;
    for (const k of kids) { after.after(k); after = k; }
    li._open = kids;
    li.firstChild.textContent = '\u25be';
  }

  // The root: the series, then how many nodes are outside every series.
  let covered = 0;
  for (const s of G.series) {
    tree.appendChild(seriesRow(s, 0));
    covered += s.count * G.kinds[s.kind].size;
  }
  if (covered < g.n) {
    const li = document.createElement('li');
    li.className = 'note';
    li.textContent = (g.n - covered).toLocaleString('en-US') + ' node(s) outside any group';
    tree.appendChild(li);
  }

  tree.addEventListener('click', (e) => {
    const li = e.target.closest('li');
    if (!li || li.classList.contains('note')) return;
    if (e.target.classList.contains('tw')) return toggle(li);
    for (const other of tree.querySelectorAll('li.current')) other.classList.remove('current');
    li.classList.add('current');
    const start = Number(li.dataset.start), end = Number(li.dataset.end);
    ui.highlightNodes(nodesOf(start, end), li.querySelector('.txt').textContent);
  });
  tree.addEventListener('dblclick', (e) => {
    const li = e.target.closest('li');
    if (li) toggle(li);
  });

  /** Opens the rows holding node i and marks the innermost; returns its chain as text. */
  function reveal(i) {
    const chain = groupChain(G, i);
    let rows = Array.from(tree.children);
    let current = null;
    for (const { series, instance } of chain) {
      const s = rows.find((li) => li.dataset.series === series.kind + ':' + series.begin);
      if (!s) break;
      if (!s._open) toggle(s);
      let inst = s._open.find((li) => Number(li.dataset.instance) === instance);
      if (!inst) {  // in a section
        const size = G.kinds[series.kind].size, p = series.begin + instance * size;
        const sec = s._open.find((li) => p >= Number(li.dataset.start) && p < Number(li.dataset.end));
        if (!sec) break;
        if (!sec._open) toggle(sec);
        inst = sec._open.find((li) => Number(li.dataset.instance) === instance);
      }
      if (!inst) break;
      current = inst;
      if (inst._expand && !inst._open) toggle(inst);
      rows = inst._open || [];
    }
    for (const other of tree.querySelectorAll('li.current')) other.classList.remove('current');
    if (current) {
      current.classList.add('current');
      current.scrollIntoView({ block: 'nearest' });
    }
    return chain.map((c) => name(c.series) + ' #' + c.instance).join(' \u203a ');
  }

  return {
    reveal,
    rows: () => Array.from(tree.querySelectorAll('li:not(.note)')).map((li) =>
      ({ text: li.querySelector('.txt').textContent, start: Number(li.dataset.start),
        end: Number(li.dataset.end), current: li.classList.contains('current') })),
    toggleRow: (k) => { const li = tree.querySelectorAll('li:not(.note)')[k]; if (li) toggle(li); },
    clickRow: (k) => { const li = tree.querySelectorAll('li:not(.note)')[k]; if (li) li.querySelector('.txt').click(); },
  };
}
