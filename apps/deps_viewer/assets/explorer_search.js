'use strict';
// The explorer's search: the result list under the box (at most SEARCH_LIMIT entries), every
// match marked on the canvas (st.matchHl), a count, and next / previous through all matches
// in id order (Enter / Shift+Enter, the ‹ › buttons). Model: explorer_data.js.

/**
 * Creates the search over #search, #search-results, #search-count and #search-prev/-next.
 * `ui` gives select(i, centre), esc(text) and redraw() (the marks changed). Returns
 * { run(text), next(delta), matches(), moveActive(delta), pickActive() }.
 */
function createSearch(g, st, ui) {
  const $ = (id) => document.getElementById(id);
  const input = $('search'), box = $('search-results'), count = $('search-count');
  let all = [];        // every match, node indices in id order
  let current = -1;    // index into `all` of the match last visited
  let active = -1;     // highlighted entry of the result list (arrow keys)

  function updateCount() {
    count.textContent = !all.length ? (input.value.trim() ? 'no match' : '')
      : (current >= 0 ? (current + 1).toLocaleString('en-US') + '/' : '') +
        all.length.toLocaleString('en-US') + (current >= 0 ? '' : all.length === 1 ? ' match' : ' matches');
    $('search-prev').disabled = $('search-next').disabled = all.length < 2;
  }

  /** Runs a search: fills the list, marks every match; returns the listed raw ids. */
  function run(text) {
    all = searchNodes(g, text, Infinity).nodes;
    const listed = all.slice(0, SEARCH_LIMIT);
    current = -1;
    active = -1;
    st.matchHl = all.length ? new Uint8Array(g.n) : null;
    for (const i of all) st.matchHl[i] = 1;
    ui.redraw();
    updateCount();
    if (!String(text).trim()) {
      box.hidden = true;
      box.innerHTML = '';
      return [];
    }
    box.innerHTML = listed.map((i) => '<div class="result" data-id="' + g.ids[i] + '">' +
      ui.esc(nodeLabel(g, i)) + '</div>').join('') +
      (all.length > listed.length ? '<div class="more">' +
        (all.length - listed.length).toLocaleString('en-US') +
        ' more matches not listed (Enter / \u203a walks through all of them)</div>' : '') +
      (all.length ? '' : '<div class="more">no task matches</div>');
    box.hidden = false;
    return listed.map((i) => g.ids[i]);
  }

  /** Selects and centres the next (delta 1) or previous (-1) match; returns its raw id. */
  function next(delta) {
    if (!all.length) return null;
    current = current < 0 ? (delta > 0 ? 0 : all.length - 1)
      : (current + delta + all.length) % all.length;
    box.hidden = true;
    ui.select(all[current], true);
    updateCount();
    return g.ids[all[current]];
  }

  function moveActive(delta) {
    const items = box.querySelectorAll('.result');
    if (!items.length) return;
    if (active >= 0 && items[active]) items[active].classList.remove('active');
    active = Math.max(0, Math.min(items.length - 1, active + delta));
    items[active].classList.add('active');
    items[active].scrollIntoView({ block: 'nearest' });
  }

  // Enter: the entry picked with the arrows, else the next match.
  function pickActive(backwards) {
    const items = box.querySelectorAll('.result');
    if (active >= 0 && items[active]) {
      const i = nodeOf(g, items[active].dataset.id);
      current = all.indexOf(i);
      box.hidden = true;
      ui.select(i, true);
      updateCount();
      return;
    }
    next(backwards ? -1 : 1);
  }

  $('search-prev').addEventListener('click', () => next(-1));
  $('search-next').addEventListener('click', () => next(1));
  updateCount();
  return { run, next, moveActive, pickActive, matches: () => all.map((i) => g.ids[i]) };
}
