#include "html_template.h"

namespace depgraph {

namespace {

constexpr std::string_view kStyleSheet = R"CSS(
:root {
  --canvas: #eef2f7;
  --ink: #1e293b;
  --soft-ink: #64748b;
  --panel: rgba(255, 255, 255, 0.95);
  --line: #d5dce6;
  --accent: #1d4ed8;
  --spmd: #C62828;
}
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; overflow: hidden; }
body {
  font: 12px/1.4 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
  color: var(--ink); background: var(--canvas);
}
#stage {
  position: fixed; inset: 0; overflow: hidden; cursor: grab; touch-action: none;
  background-color: var(--canvas);
  background-image: radial-gradient(rgba(71, 85, 105, 0.22) 1px, transparent 1.2px);
  background-size: 22px 22px;
}
#stage.dragging { cursor: grabbing; }
#stage > svg { position: absolute; left: 0; top: 0; transform-origin: 0 0; overflow: visible; }
/* Graphviz paints a white page rectangle; let the canvas show so that background-coloured
   (unselected) edges really blend in. */
#stage g.graph > polygon:first-of-type { fill: transparent; stroke: none; }
#stage g.node { cursor: pointer; }
#stage g.node.selected polygon, #stage g.node.selected ellipse,
#stage g.node.selected path, #stage g.node.selected polyline {
  stroke: var(--accent) !important; stroke-width: 2.5px !important;
}
#stage text.spmd-badge { pointer-events: all; }
.panel {
  position: fixed; z-index: 2; background: var(--panel); border: 1px solid var(--line);
  border-radius: 8px; box-shadow: 0 6px 20px rgba(30, 41, 59, 0.12);
}
#hud {
  top: 10px; left: 10px; padding: 6px 10px; display: flex; flex-wrap: wrap;
  align-items: center; gap: 4px 10px; max-width: calc(100vw - 20px);
}
#hud .count { font-weight: 650; }
#hud .keys { display: flex; flex-wrap: wrap; gap: 4px 10px; color: var(--soft-ink); }
#hud kbd {
  font: 11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--ink);
  border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px;
  padding: 0 4px; margin-right: 3px; background: #f8fafc;
}
#legend {
  bottom: 10px; left: 10px; padding: 6px 10px; display: flex; flex-wrap: wrap;
  align-items: center; gap: 4px 14px; max-width: calc(100vw - 20px);
}
#legend .item { display: inline-flex; align-items: center; gap: 5px; white-space: nowrap; }
#legend svg { display: block; }
#detail {
  top: 56px; right: 10px; width: min(340px, calc(100vw - 20px));
  max-height: calc(100vh - 70px); display: flex; flex-direction: column;
}
#detail[hidden] { display: none; }
#detail .head {
  display: flex; gap: 8px; align-items: flex-start; justify-content: space-between;
  padding: 9px 11px; border-bottom: 1px solid var(--line);
}
#detail-title { font-weight: 650; font-size: 13px; word-break: break-word; }
#detail-sub { color: var(--soft-ink); margin-top: 2px; }
#detail-close {
  flex: none; width: 22px; height: 22px; border: 0; border-radius: 5px; cursor: pointer;
  background: #eef2f7; color: var(--ink); font-size: 15px; line-height: 1;
}
#detail-close:hover { background: #dfe6ef; }
#detail-body { padding: 8px 11px 11px; overflow: auto; }
#detail h3 {
  margin: 8px 0 4px; font-size: 11px; font-weight: 650; color: var(--soft-ink);
  letter-spacing: 0.03em;
}
#detail h3:first-child { margin-top: 0; }
#detail table { width: 100%; border-collapse: collapse; }
#detail td { padding: 2px 0; border-bottom: 1px solid #eef2f7; }
#detail td.hint { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
#detail td.n { text-align: right; font-weight: 650; padding-left: 10px; width: 1%; }
#detail .none { color: #94a3b8; margin: 0; }
)CSS";

constexpr std::string_view kLegendAndPanel = R"HTML(
<div id="legend" class="panel" aria-label="Legend">
  <span class="item"><svg width="20" height="14" viewBox="0 0 20 14" aria-hidden="true"><rect x="1" y="2" width="18" height="10" rx="3" fill="#66A3FF" stroke="#334155"/></svg>AIC (cube)</span>
  <span class="item"><svg width="20" height="14" viewBox="0 0 20 14" aria-hidden="true"><ellipse cx="10" cy="7" rx="9" ry="5" fill="#FFB366" stroke="#334155"/></svg>AIV (vector)</span>
  <span class="item"><svg width="20" height="14" viewBox="0 0 20 14" aria-hidden="true"><path d="M10 1 L19 7 L10 13 L1 7 Z" fill="#66CC99" stroke="#334155"/></svg>mix</span>
  <span class="item"><svg width="20" height="14" viewBox="0 0 20 14" aria-hidden="true"><path d="M2 1.5 H14 L18 5.5 V12.5 H2 Z" fill="#EAEAEA" stroke="#334155" stroke-dasharray="2.5 1.5"/></svg>alloc</span>
  <span class="item"><svg width="34" height="14" viewBox="0 0 34 14" aria-hidden="true"><rect x="1" y="2" width="18" height="10" rx="3" fill="#ffffff" stroke="#C62828" stroke-width="1.5"/><text x="21" y="10" fill="#C62828" font-size="8" font-weight="700" font-family="Helvetica, Arial, sans-serif">xN</text></svg>SPMD block num</span>
  <span class="item">↓N ↑M = pred / succ</span>
</div>
<section id="detail" class="panel" aria-live="polite" hidden>
  <div class="head">
    <div><div id="detail-title"></div><div id="detail-sub"></div></div>
    <button type="button" id="detail-close" title="Close (Esc)" aria-label="Close">&#xd7;</button>
  </div>
  <div id="detail-body"></div>
</section>
)HTML";

constexpr std::string_view kScript = R"JS(
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
)JS";

}  // namespace

std::string_view PageStyleSheet() { return kStyleSheet; }
std::string_view PageLegendAndPanel() { return kLegendAndPanel; }
std::string_view PageScript() { return kScript; }

}  // namespace depgraph
