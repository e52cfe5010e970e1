'use strict';
// The explorer's path question, "why is B after A?": two task references (typed, or set from
// the panel), the shortest path between them listed step by step with every edge row's source,
// flags, argument and tensor, and "no path either way" said for what it is: the two tasks are
// unordered, the race question. Model: explorer_data.js; drawing through the shared state.

/**
 * Creates the path tool over the #path-* elements. `ui` gives what it needs of the page:
 * select(i, centre), markPath(nodes, code), clearPathMark(), link(i), esc(text), note(text)
 * and mask() (the current mode's shown pairs). Returns { open(from, to), show(a, b), close(),
 * setStart(i), setEnd(i), result() }.
 */
function createPathTool(g, ui) {
  const $ = (id) => document.getElementById(id);
  const box = $('path-box'), from = $('path-from'), to = $('path-to'), out = $('path-result');
  let last = null;  // { a, b, direction: 'forward' | 'backward' | 'none', nodes }

  // One node for a typed reference: an id form, or a kernel name that names exactly one task.
  function resolve(text) {
    if (!String(text).trim()) return { error: 'give a task' };
    const found = searchNodes(g, text, 2);
    if (found.total === 1) return { node: found.nodes[0] };
    if (!found.total) return { error: 'no task matches ' + JSON.stringify(String(text).trim()) };
    return { error: found.total.toLocaleString('en-US') + ' tasks match ' +
      JSON.stringify(String(text).trim()) + ': give an id' };
  }

  // The edge facts of one step: each row's source, flags, overlap, argument and tensor.
  function edgeText(p) {
    const rows = pairRows(g, p);
    const hidden = ui.mask()[p] ? '' : '<span class="tag hidden-edge">not in this edge set</span>';
    if (!rows.length) return hidden + '<span class="tag">edge</span>';
    return hidden + rows.map((row) => '<span class="tag">' + ui.esc(edgeRowText(row)) + '</span>').join('');
  }

  function render() {
    if (!last) { out.innerHTML = ''; return; }
    const { a, b, direction, nodes } = last;
    const A = displayId(g, a), B = displayId(g, b);
    if (direction === 'none') {
      out.innerHTML = '<div class="unordered"><b>No path either way: ' + ui.esc(A) + ' and ' +
        ui.esc(B) + ' are unordered.</b> Neither waits for the other, so the runtime may run ' +
        'them in either order or at once. If both touch the same bytes and one of them ' +
        'writes, that is a race (<code>depgraph audit</code> lists them).</div>';
      return;
    }
    const head = direction === 'forward'
      ? ui.esc(B) + ' is after ' + ui.esc(A)
      : 'no path from ' + ui.esc(A) + ' to ' + ui.esc(B) + '; ' + ui.esc(B) + ' comes first';
    let html = '<div class="path-head-line">' + head + ': ' + (nodes.length - 1) +
      ' edge(s) (full graph)</div><ol id="path-steps">';
    nodes.forEach((v, k) => {
      html += '<li class="step" data-id="' + g.ids[v] + '">' + ui.link(v) + ' <span class="kn">' +
        ui.esc(kernelName(g, v) || KIND_NAMES[g.kind[v]]) + '</span>';
      if (k + 1 < nodes.length) {
        html += '<div class="via">\u2193 ' + edgeText(pairOf(g, v, nodes[k + 1])) + '</div>';
      }
      html += '</li>';
    });
    out.innerHTML = html + '</ol>';
  }

  /** Shows the path between nodes a and b (a -> b, else b -> a, else "unordered"). */
  function show(a, b) {
    if (a < 0 || b < 0 || a === b) return null;
    from.value = displayId(g, a);
    to.value = displayId(g, b);
    box.hidden = false;
    let nodes = shortestPath(g, a, b), direction = 'forward';
    if (!nodes) { nodes = shortestPath(g, b, a); direction = 'backward'; }
    if (!nodes) { nodes = []; direction = 'none'; }
    last = { a, b, direction, nodes };
    if (nodes.length) ui.markPath(nodes, 3); else ui.clearPathMark();
    ui.note(direction === 'none' ? 'no path between ' + displayId(g, a) + ' and ' +
      displayId(g, b) + ': unordered' : 'path: ' + (nodes.length - 1) + ' edges (full graph)');
    render();
    return result();
  }

  /** The last answer: direction and the steps as raw ids with their edges' sources. */
  function result() {
    if (!last) return null;
    const steps = last.nodes.map((v, k) => {
      const next = last.nodes[k + 1];
      const rows = next === undefined ? [] : pairRows(g, pairOf(g, v, next));
      return { id: g.ids[v], kernel: kernelName(g, v), via: rows.map((r) => r.source) };
    });
    return { from: g.ids[last.a], to: g.ids[last.b], direction: last.direction, steps };
  }

  function go() {
    const ra = resolve(from.value), rb = resolve(to.value);
    if (ra.error || rb.error) {
      last = null;
      out.innerHTML = '<div class="note">' + ui.esc((ra.error ? 'from: ' + ra.error : '') +
        (ra.error && rb.error ? '; ' : '') + (rb.error ? 'to: ' + rb.error : '')) + '</div>';
      return null;
    }
    if (ra.node === rb.node) {
      out.innerHTML = '<div class="note">from and to are the same task</div>';
      return null;
    }
    return show(ra.node, rb.node);
  }

  function open(a, b) {
    box.hidden = false;
    if (a >= 0) from.value = displayId(g, a);
    if (b >= 0) to.value = displayId(g, b);
    if (a >= 0 && b >= 0) return show(a, b);
    (a >= 0 ? to : from).focus();
    return null;
  }

  function close() {
    box.hidden = true;
    if (last && last.nodes.length) ui.clearPathMark();
    last = null;
    out.innerHTML = '';
  }

  $('path-go').addEventListener('click', go);
  $('path-swap').addEventListener('click', () => {
    [from.value, to.value] = [to.value, from.value];
    go();
  });
  $('path-close').addEventListener('click', close);
  for (const input of [from, to]) {
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); go(); }
      if (e.key === 'Escape') { e.preventDefault(); input.blur(); }
    });
  }
  const ends = () => ({ a: resolve(from.value).node, b: resolve(to.value).node });
  return {
    open, show, close, result,
    setStart: (i) => { const { b } = ends(); return open(i, b === undefined ? -1 : b); },
    setEnd: (i) => { const { a } = ends(); return open(a === undefined ? -1 : a, i); },
    isOpen: () => !box.hidden,
  };
}
