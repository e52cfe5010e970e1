(function () {
  'use strict';
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var stage = document.getElementById('stage');
  var drawing = stage.querySelector('svg');
  var panel = document.getElementById('detail');
  var panelTitle = document.getElementById('detail-title');
  var panelSub = document.getElementById('detail-sub');
  var panelBody = document.getElementById('detail-body');
  if (!drawing) return;

  // Work in SVG user units: scale 1 shows one unit per CSS pixel.
  var vb = drawing.viewBox && drawing.viewBox.baseVal;
  var baseW = vb && vb.width ? vb.width : drawing.getBoundingClientRect().width || 1;
  var baseH = vb && vb.height ? vb.height : drawing.getBoundingClientRect().height || 1;
  drawing.setAttribute('width', baseW);
  drawing.setAttribute('height', baseH);

  var MIN_SCALE = 0.02, MAX_SCALE = 20;
  var view = { scale: 1, x: 0, y: 0 };
  var floorScale = MIN_SCALE;

  function clamp(v, lo, hi) { return v < lo ? lo : (v > hi ? hi : v); }
  function paint() {
    drawing.style.transform =
      'translate(' + view.x + 'px,' + view.y + 'px) scale(' + view.scale + ')';
  }
  function zoomAbout(px, py, factor) {
    var next = clamp(view.scale * factor, floorScale, MAX_SCALE);
    var ratio = next / view.scale;
    view.x = px - (px - view.x) * ratio;
    view.y = py - (py - view.y) * ratio;
    view.scale = next;
    paint();
  }
  function fitToStage() {
    var w = stage.clientWidth, h = stage.clientHeight;
    var s = Math.min(w / baseW, h / baseH) * 0.95;
    if (!isFinite(s) || s <= 0) return;
    floorScale = Math.min(MIN_SCALE, s);
    view.scale = Math.min(s, MAX_SCALE);
    view.x = (w - baseW * view.scale) / 2;
    view.y = (h - baseH * view.scale) / 2;
    paint();
  }
  function resetView() { view.scale = 1; view.x = 0; view.y = 0; paint(); }

  function titleOf(group) {
    for (var c = group.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === 'title') return c.textContent;
    }
    return '';
  }

  // SPMD badges: "xN" just right of each multi-block node.
  Array.prototype.forEach.call(drawing.querySelectorAll('g.node'), function (group) {
    var blocks = spmdBlocks[titleOf(group)];
    if (!blocks) return;
    var box = group.getBBox();
    var badge = document.createElementNS(SVG_NS, 'text');
    badge.setAttribute('class', 'spmd-badge');
    badge.setAttribute('x', box.x + box.width + 2);
    badge.setAttribute('y', box.y + box.height / 2);
    badge.setAttribute('dominant-baseline', 'middle');
    badge.setAttribute('fill', '#C62828');
    badge.setAttribute('font-family', 'Helvetica, Arial, sans-serif');
    badge.setAttribute('font-size', '8pt');
    badge.setAttribute('font-weight', 'bold');
    var tip = document.createElementNS(SVG_NS, 'title');
    tip.textContent = 'SPMD block num = ' + blocks;
    badge.appendChild(tip);
    badge.appendChild(document.createTextNode('x' + blocks));
    group.appendChild(badge);
  });

  // Detail panel.
  var selected = null;
  function hintSection(heading, count, rows) {
    var frag = document.createDocumentFragment();
    var h = document.createElement('h3');
    h.textContent = heading + ' by name_hint (' + count + ')';
    frag.appendChild(h);
    if (!rows || !rows.length) {
      var none = document.createElement('p');
      none.className = 'none';
      none.textContent = 'none';
      frag.appendChild(none);
      return frag;
    }
    var table = document.createElement('table');
    rows.forEach(function (row) {
      var tr = table.insertRow();
      var hint = tr.insertCell();
      hint.className = 'hint';
      hint.textContent = row[0];
      var n = tr.insertCell();
      n.className = 'n';
      n.textContent = row[1];
    });
    frag.appendChild(table);
    return frag;
  }
  function closeDetail() {
    panel.hidden = true;
    if (selected) selected.classList.remove('selected');
    selected = null;
  }
  function openDetail(group) {
    var stats = depStats[titleOf(group)];
    if (!stats) return;
    if (selected) selected.classList.remove('selected');
    selected = group;
    group.classList.add('selected');
    panelTitle.textContent = stats.label + ' \u00b7 ' + stats.name_hint;
    panelSub.textContent = '\u2193' + stats.fanin + ' predecessors \u00b7 \u2191' +
      stats.fanout + ' successors';
    panelBody.textContent = '';
    panelBody.appendChild(hintSection('Predecessors', stats.fanin, stats.pred_by_hint));
    panelBody.appendChild(hintSection('Successors', stats.fanout, stats.succ_by_hint));
    panel.hidden = false;
  }
  document.getElementById('detail-close').addEventListener('click', closeDetail);

  // Wheel pans; ctrl+wheel (and trackpad pinch, which browsers report as ctrl+wheel) zooms.
  stage.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var dx = ev.deltaX, dy = ev.deltaY;
    if (ev.deltaMode === 1) { dx *= 16; dy *= 16; }
    else if (ev.deltaMode === 2) { dx *= stage.clientWidth; dy *= stage.clientHeight; }
    if (ev.ctrlKey) {
      var r = stage.getBoundingClientRect();
      zoomAbout(ev.clientX - r.left, ev.clientY - r.top, clamp(Math.exp(-dy / 250), 0.8, 1.25));
    } else {
      view.x -= dx;
      view.y -= dy;
      paint();
    }
  }, { passive: false });

  // Safari reports pinch as gesture events.
  var gestureScale = 1;
  stage.addEventListener('gesturestart', function (ev) { ev.preventDefault(); gestureScale = 1; });
  stage.addEventListener('gesturechange', function (ev) {
    ev.preventDefault();
    var r = stage.getBoundingClientRect();
    zoomAbout(ev.clientX - r.left, ev.clientY - r.top,
              clamp(ev.scale / gestureScale, 0.8, 1.25));
    gestureScale = ev.scale;
  });

  // Drag pans; a drag beyond 3 px is not a click.
  var drag = null, swallowClick = false;
  stage.addEventListener('pointerdown', function (ev) {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y, moved: false };
  });
  window.addEventListener('pointermove', function (ev) {
    if (!drag) return;
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
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

  stage.addEventListener('click', function (ev) {
    if (swallowClick) { swallowClick = false; return; }
    var group = ev.target.closest ? ev.target.closest('g.node') : null;
    if (group && drawing.contains(group)) openDetail(group);
    else closeDetail();
  });

  document.addEventListener('keydown', function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'f' || ev.key === 'F') fitToStage();
    else if (ev.key === 'r' || ev.key === 'R') resetView();
    else if (ev.key === 'Escape') closeDetail();
  });

  paint();
  if (document.readyState === 'complete') requestAnimationFrame(fitToStage);
  else window.addEventListener('load', function () { requestAnimationFrame(fitToStage); });
})();
