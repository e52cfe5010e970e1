// The Graphviz page's behaviour: pan/zoom of the laid-out SVG, fit below the header, drawn
// 🔥/⭐ markers (no emoji font needed), readable tooltips, and the detail panel that lists a
// task's predecessors and successors, highlights them and jumps to one on a click.
// Globals written by the page: spmdBlocks {DOT id: blocks}, depStats {DOT id: facts}.
(() => {
  'use strict';
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const FIRE = '\u{1F525}', STAR = '\u2B50';
  const stage = document.getElementById('stage');
  const drawing = stage.querySelector('svg');
  const hud = document.getElementById('hud');
  const legend = document.getElementById('legend');
  const panel = document.getElementById('detail');
  const panelTitle = document.getElementById('detail-title');
  const panelSub = document.getElementById('detail-sub');
  const panelBody = document.getElementById('detail-body');
  if (!drawing) return;

  // Work in SVG user units: scale 1 shows one unit per CSS pixel.
  const vb = drawing.viewBox && drawing.viewBox.baseVal;
  const baseW = vb && vb.width ? vb.width : drawing.getBoundingClientRect().width || 1;
  const baseH = vb && vb.height ? vb.height : drawing.getBoundingClientRect().height || 1;
  drawing.setAttribute('width', baseW);
  drawing.setAttribute('height', baseH);

  const MIN_SCALE = 0.02, MAX_SCALE = 20, MARGIN = 10;
  const view = { scale: 1, x: 0, y: 0 };
  let floorScale = MIN_SCALE;

  const clamp = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);
  function paint() {
    drawing.style.transform = `translate(${view.x}px,${view.y}px) scale(${view.scale})`;
  }
  function zoomAbout(px, py, factor) {
    const next = clamp(view.scale * factor, floorScale, MAX_SCALE);
    const ratio = next / view.scale;
    view.x = px - (px - view.x) * ratio;
    view.y = py - (py - view.y) * ratio;
    view.scale = next;
    paint();
  }

  // The part of the stage no panel covers: below the header, above the legend and, with
  // `besidePanel`, left of the detail panel when it is open.
  function freeArea(besidePanel) {
    const stageBox = stage.getBoundingClientRect();
    let top = stageBox.top, bottom = stageBox.bottom, right = stageBox.right;
    if (hud) top = Math.max(top, hud.getBoundingClientRect().bottom + MARGIN);
    if (legend && !legend.hidden) {
      bottom = Math.min(bottom, legend.getBoundingClientRect().top - MARGIN);
    }
    if (besidePanel && !panel.hidden) {
      right = Math.min(right, panel.getBoundingClientRect().left - MARGIN);
    }
    if (bottom - top < 80) { top = stageBox.top; bottom = stageBox.bottom; }
    if (right - stageBox.left < 120) right = stageBox.right;
    return { left: 0, top: top - stageBox.top, width: right - stageBox.left, height: bottom - top };
  }
  function fitToStage() {
    const area = freeArea(false);
    const s = Math.min(area.width / baseW, area.height / baseH) * 0.95;
    if (!isFinite(s) || s <= 0) return;
    floorScale = Math.min(MIN_SCALE, s);
    view.scale = Math.min(s, MAX_SCALE);
    view.x = area.left + (area.width - baseW * view.scale) / 2;
    view.y = area.top + (area.height - baseH * view.scale) / 2;
    paint();
  }
  function resetView() {
    const area = freeArea(false);
    view.scale = 1;
    view.x = area.left;
    view.y = area.top;
    paint();
  }
  // Moves the view so that the group's centre is in the middle of the free area.
  function centreOn(group) {
    const box = group.getBoundingClientRect();
    const stageBox = stage.getBoundingClientRect();
    const area = freeArea(true);
    view.x += area.left + area.width / 2 - (box.left + box.width / 2 - stageBox.left);
    view.y += area.top + area.height / 2 - (box.top + box.height / 2 - stageBox.top);
    paint();
  }

  function titleElement(group) {
    for (let c = group.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === 'title') return c;
    }
    return null;
  }
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const display = (dotId) => {
    const s = depStats[dotId];
    return s ? `${s.label} \u00b7 ${s.name_hint}` : dotId;
  };

  // Index nodes and edges by DOT id before their <title>s become tooltips.
  const nodes = new Map();  // DOT id -> g.node
  const edgesIn = new Map(), edgesOut = new Map();  // DOT id -> [g.edge]
  for (const group of drawing.querySelectorAll('g.node')) {
    const title = titleElement(group);
    if (!title) continue;
    group.dataset.node = title.textContent;
    nodes.set(title.textContent, group);
  }
  const endpoint = (text) => text.split(':')[0].trim();
  let ghostCount = 0;
  for (const group of drawing.querySelectorAll('g.edge')) {
    const title = titleElement(group);
    if (!title || !title.textContent.includes('->')) continue;
    const [from, to] = title.textContent.split('->');
    const pred = endpoint(from), succ = endpoint(to);
    group.dataset.pred = pred;
    group.dataset.succ = succ;
    if (!edgesOut.has(pred)) edgesOut.set(pred, []);
    if (!edgesIn.has(succ)) edgesIn.set(succ, []);
    edgesOut.get(pred).push(group);
    edgesIn.get(succ).push(group);
    const ghost = group.classList.contains('hidden-edge');
    if (ghost) ++ghostCount;
    title.textContent = `${display(pred)} \u2192 ${display(succ)}` +
      (ghost ? ' (not in this edge mode)' : '');
  }

  // Tooltips name the task, its kernel and its honest counts.
  function countsText(s) {
    const part = (arrow, n, drawnN, word) =>
      `${arrow}${plural(n, word)}` + (drawnN !== n ? ` (${drawnN} drawn, ${n - drawnN} ghosted)` : '');
    return `${part('\u2193', s.fanin, s.drawn_in, 'predecessor')} \u00b7 ` +
      `${part('\u2191', s.fanout, s.drawn_out, 'successor')}`;
  }
  for (const [id, group] of nodes) {
    const s = depStats[id];
    if (s) titleElement(group).textContent = `${display(id)}\n${countsText(s)}\nclick for details`;
  }

  // 🔥 and ⭐ in SVG text become drawn shapes, so they show without an emoji font.
  function flame(x, y, size) {
    const g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('class', 'marker marker-fire');
    g.setAttribute('transform', `translate(${x} ${y}) scale(${size})`);
    const outer = document.createElementNS(SVG_NS, 'path');
    outer.setAttribute('d', 'M0.52 0.02C0.6 0.22 0.9 0.38 0.9 0.66C0.9 0.87 0.72 1 0.5 1' +
      'C0.28 1 0.1 0.87 0.1 0.64C0.1 0.46 0.22 0.36 0.3 0.24C0.34 0.36 0.4 0.42 0.46 0.44' +
      'C0.44 0.3 0.46 0.14 0.52 0.02Z');
    outer.setAttribute('fill', '#E8590C');
    const inner = document.createElementNS(SVG_NS, 'path');
    inner.setAttribute('d', 'M0.5 0.5C0.56 0.62 0.7 0.7 0.7 0.82C0.7 0.93 0.6 0.99 0.5 0.99' +
      'C0.4 0.99 0.3 0.93 0.3 0.82C0.3 0.7 0.44 0.64 0.5 0.5Z');
    inner.setAttribute('fill', '#FCC419');
    g.append(outer, inner);
    return g;
  }
  function star(x, y, size) {
    const points = [];
    for (let k = 0; k < 10; ++k) {
      const r = k % 2 ? 0.21 : 0.5, a = -Math.PI / 2 + (k * Math.PI) / 5;
      points.push(`${(0.5 + r * Math.cos(a)).toFixed(3)},${(0.54 + r * Math.sin(a)).toFixed(3)}`);
    }
    const p = document.createElementNS(SVG_NS, 'polygon');
    p.setAttribute('class', 'marker marker-star');
    p.setAttribute('points', points.join(' '));
    p.setAttribute('transform', `translate(${x} ${y}) scale(${size})`);
    p.setAttribute('fill', '#FAB005');
    p.setAttribute('stroke', '#B7791F');
    p.setAttribute('stroke-width', 0.06);
    return p;
  }
  function drawMarkers(text) {
    const content = text.textContent;
    if (!content.includes(FIRE) && !content.includes(STAR)) return;
    const kinds = [];
    for (const ch of content.match(/\u{1F525}|\u2B50/gu)) kinds.push(ch === FIRE ? flame : star);
    text.textContent = content.replace(/[\u{1F525}\u2B50]\uFE0F?/gu, '').replace(/^\s+/, '');
    const fontSize = parseFloat(text.getAttribute('font-size')) || 10;
    const size = fontSize * 1.05, gap = fontSize * 0.3;
    const iconsW = kinds.length * size + gap;
    const textW = text.getComputedTextLength();
    const x = parseFloat(text.getAttribute('x')) || 0, y = parseFloat(text.getAttribute('y')) || 0;
    const anchor = text.getAttribute('text-anchor') || 'start';
    const start = anchor === 'middle' ? x - (iconsW + textW) / 2
      : anchor === 'end' ? x - iconsW - textW : x;
    kinds.forEach((draw, k) => {
      text.parentNode.insertBefore(draw(start + k * size, y - fontSize * 0.85, size), text);
    });
    text.setAttribute('text-anchor', 'start');
    text.setAttribute('x', start + iconsW);
  }
  for (const text of drawing.querySelectorAll('g.node text')) drawMarkers(text);

  // SPMD badges: "xN" just right of each multi-block node.
  for (const [id, group] of nodes) {
    const blocks = spmdBlocks[id];
    if (!blocks) continue;
    const box = group.getBBox();
    const badge = document.createElementNS(SVG_NS, 'text');
    badge.setAttribute('class', 'spmd-badge');
    badge.setAttribute('x', box.x + box.width + 2);
    badge.setAttribute('y', box.y + box.height / 2);
    badge.setAttribute('dominant-baseline', 'middle');
    badge.setAttribute('fill', '#C62828');
    badge.setAttribute('font-family', 'Helvetica, Arial, sans-serif');
    badge.setAttribute('font-size', '8pt');
    badge.setAttribute('font-weight', 'bold');
    const tip = document.createElementNS(SVG_NS, 'title');
    tip.textContent = `SPMD block num = ${blocks}`;
    badge.append(tip, `x${blocks}`);
    group.appendChild(badge);
  }

  // Legend items that do not apply to this drawing are left out.
  if (legend) {
    const present = {
      ghost: ghostCount > 0,
      fire: drawing.querySelector('.marker-fire') !== null,
      star: drawing.querySelector('.marker-star') !== null,
      dummy: Object.values(depStats).some((s) => s.name_hint === 'dummy'),
      explicit: drawing.querySelector('g.edge path[stroke-dasharray]') !== null,
      overlap: drawing.querySelector('g.edge text') !== null,
    };
    for (const item of legend.querySelectorAll('[data-only]')) {
      item.hidden = !present[item.dataset.only];
    }
  }

  // Selection: the task, its neighbours and their edges are highlighted, the rest dimmed.
  const highlighted = [];
  function mark(element, cls) {
    element.classList.add(cls);
    highlighted.push([element, cls]);
  }
  function clearHighlight() {
    for (const [element, cls] of highlighted) element.classList.remove(cls);
    highlighted.length = 0;
    stage.classList.remove('focus');
  }
  function highlight(id) {
    clearHighlight();
    const s = depStats[id];
    stage.classList.add('focus');
    mark(nodes.get(id), 'selected');
    for (const [peer] of s.preds) if (nodes.has(peer)) mark(nodes.get(peer), 'hl-pred');
    for (const [peer] of s.succs) if (nodes.has(peer)) mark(nodes.get(peer), 'hl-succ');
    for (const edge of edgesIn.get(id) || []) mark(edge, 'hl-in');
    for (const edge of edgesOut.get(id) || []) mark(edge, 'hl-out');
  }

  function peerSection(heading, listId, peers, byHint, drawnCount) {
    const frag = document.createDocumentFragment();
    const h = document.createElement('h3');
    h.textContent = `${heading} (${peers.length})` +
      (drawnCount !== peers.length ? ` \u00b7 ${drawnCount} drawn` : '');
    frag.appendChild(h);
    if (byHint && byHint.length > 1) {
      const summary = document.createElement('p');
      summary.className = 'by-hint';
      summary.textContent = byHint.map(([hint, n]) => `${hint} ${n}`).join(' \u00b7 ');
      frag.appendChild(summary);
    }
    const list = document.createElement('ul');
    list.id = listId;
    list.className = 'peers';
    if (!peers.length) {
      const none = document.createElement('li');
      none.className = 'none';
      none.textContent = 'none';
      list.appendChild(none);
    }
    for (const [peer, drawn] of peers) {
      const s = depStats[peer];
      const item = document.createElement('li');
      const link = document.createElement('button');
      link.type = 'button';
      link.className = 'task-link' + (drawn ? '' : ' ghost');
      link.dataset.node = peer;
      if (s) link.dataset.id = s.id;
      link.title = drawn ? 'select and centre this task'
        : 'select and centre this task (its edge is not in this edge mode)';
      const label = document.createElement('span');
      label.className = 'label';
      label.textContent = s ? s.label : peer;
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = s ? s.name_hint : '';
      link.append(label, name);
      if (!drawn) {
        const tag = document.createElement('span');
        tag.className = 'tag';
        tag.textContent = 'ghost';
        link.appendChild(tag);
      }
      item.appendChild(link);
      list.appendChild(item);
    }
    frag.appendChild(list);
    return frag;
  }
  function closeDetail() {
    panel.hidden = true;
    clearHighlight();
  }
  function openDetail(group) {
    const id = group.dataset.node;
    const s = depStats[id];
    if (!s) return;
    highlight(id);
    panelTitle.textContent = display(id);
    panelSub.textContent = `task ${s.id} \u00b7 ${countsText(s)}`;
    panelBody.textContent = '';
    panelBody.appendChild(peerSection('Predecessors', 'detail-preds', s.preds, s.pred_by_hint,
      s.drawn_in));
    panelBody.appendChild(peerSection('Successors', 'detail-succs', s.succs, s.succ_by_hint,
      s.drawn_out));
    panel.hidden = false;
    const top = (hud ? hud.getBoundingClientRect().bottom : 0) + MARGIN;
    const bottom = legend ? legend.getBoundingClientRect().height + 2 * MARGIN : MARGIN;
    panel.style.top = `${top}px`;
    panel.style.maxHeight = `calc(100vh - ${top + bottom}px)`;
  }
  panelBody.addEventListener('click', (ev) => {
    const link = ev.target.closest('.task-link');
    const group = link && nodes.get(link.dataset.node);
    if (!group) return;
    openDetail(group);
    centreOn(group);
  });
  document.getElementById('detail-close').addEventListener('click', closeDetail);

  // Wheel pans; ctrl+wheel (and trackpad pinch, which browsers report as ctrl+wheel) zooms.
  stage.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    let dx = ev.deltaX, dy = ev.deltaY;
    if (ev.deltaMode === 1) { dx *= 16; dy *= 16; }
    else if (ev.deltaMode === 2) { dx *= stage.clientWidth; dy *= stage.clientHeight; }
    if (ev.ctrlKey) {
      const r = stage.getBoundingClientRect();
      zoomAbout(ev.clientX - r.left, ev.clientY - r.top, clamp(Math.exp(-dy / 250), 0.8, 1.25));
    } else {
      view.x -= dx;
      view.y -= dy;
      paint();
    }
  }, { passive: false });

  // Safari reports pinch as gesture events.
  let gestureScale = 1;
  stage.addEventListener('gesturestart', (ev) => { ev.preventDefault(); gestureScale = 1; });
  stage.addEventListener('gesturechange', (ev) => {
    ev.preventDefault();
    const r = stage.getBoundingClientRect();
    zoomAbout(ev.clientX - r.left, ev.clientY - r.top, clamp(ev.scale / gestureScale, 0.8, 1.25));
    gestureScale = ev.scale;
  });

  // Drag pans; a drag beyond 3 px is not a click.
  let drag = null, swallowClick = false;
  stage.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y, moved: false };
  });
  window.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && (Math.abs(dx) > 3 || Math.abs(dy) > 3)) {
      drag.moved = true;
      stage.classList.add('dragging');
    }
    if (drag.moved) {
      view.x = drag.vx + dx;
      view.y = drag.vy + dy;
      paint();
    }
  });
  function endDrag() {
    if (!drag) return;
    swallowClick = drag.moved;
    drag = null;
    stage.classList.remove('dragging');
  }
  window.addEventListener('pointerup', endDrag);
  window.addEventListener('pointercancel', endDrag);

  stage.addEventListener('click', (ev) => {
    if (swallowClick) { swallowClick = false; return; }
    const group = ev.target.closest ? ev.target.closest('g.node') : null;
    if (group && drawing.contains(group)) openDetail(group);
    else closeDetail();
  });

  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'f' || ev.key === 'F') fitToStage();
    else if (ev.key === 'r' || ev.key === 'R') resetView();
    else if (ev.key === 'Escape') closeDetail();
  });

  paint();
  if (document.readyState === 'complete') requestAnimationFrame(fitToStage);
  else window.addEventListener('load', () => requestAnimationFrame(fitToStage));
})();
