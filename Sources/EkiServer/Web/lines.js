// 路線: the app's 路線 tab as a panel. Operator type (JR, 大手私鉄, …) → operator → line with
// visited/total (GET /api/lines, grouped as `eki lines` groups them); a line lists its stations
// in line order with visited marks (GET /api/line?id=) and is drawn on the map, fitted to view.
// The station screen's 路線 row becomes one link per line with its n/m (`line_stats` of
// /api/station). Loaded after app.js; uses window.eki.map and window.eki.openStation, and the
// `eki:station` event app.js fires after filling the station screen.
'use strict';

(() => {
  const eki = window.eki;
  if (!eki || !eki.map) return;
  const config = JSON.parse(document.querySelector('meta[name="eki-config"]').content);
  const map = eki.map;

  // Every word this file shows, Japanese and English (config.lang picks; the page's own
  // dictionary, when present, may override a key).
  const TEXT = {
    ja: {
      button: '路線', title: '路線', close: '閉じる', back: '路線一覧', loading: '読み込み中…',
      failed: (m) => `路線を読めません: ${m}`, none: '路線がありません',
      branch: (n) => `支線 ${n}`, loop: '環状', stations: (n) => `${n} 駅`,
      shinkansen: '新幹線', station: '駅情報', lineCount: (v, t) => `${v}/${t}`,
      stationLines: '路線',
    },
    en: {
      button: 'Lines', title: 'Lines', close: 'Close', back: 'All lines', loading: 'Loading…',
      failed: (m) => `cannot read the lines: ${m}`, none: 'no lines',
      branch: (n) => `branch ${n}`, loop: 'loop', stations: (n) => `${n} stations`,
      shinkansen: 'Shinkansen', station: 'Station', lineCount: (v, t) => `${v}/${t}`,
      stationLines: 'Lines',
    },
  };
  const lang = config.lang === 'en' ? 'en' : 'ja';
  function tr(key, ...args) {
    const own = TEXT[lang][key];
    const page = typeof eki.t === 'function' ? eki.t(`lines.${key}`, ...args) : undefined;
    if (page !== undefined && page !== `lines.${key}`) return page;
    return typeof own === 'function' ? own(...args) : own;
  }

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  async function getJSON(url) {
    const r = await fetch(url, { headers: { Accept: 'application/json' } });
    const body = await r.json().catch(() => ({ message: `HTTP ${r.status}` }));
    if (!r.ok) throw new Error(body.message || `HTTP ${r.status}`);
    return body;
  }

  // --- The panel and its button ----------------------------------------------------------------

  const panel = el('section');
  panel.id = 'lines';
  panel.hidden = true;
  panel.setAttribute('aria-label', tr('title'));
  const head = el('div', 'lines-head');
  const back = el('button', 'lines-back', `‹ ${tr('back')}`);
  back.id = 'lines-back';
  back.type = 'button';
  back.hidden = true;
  const title = el('h2', '', tr('title'));
  title.id = 'lines-title';
  const count = el('span', 'nm');
  count.id = 'lines-count';
  const closeButton = el('button', 'lines-close', '×');
  closeButton.id = 'lines-close';
  closeButton.type = 'button';
  closeButton.setAttribute('aria-label', tr('close'));
  head.append(back, title, count, closeButton);
  const sub = el('p', 'lines-sub');
  sub.id = 'lines-sub';
  const message = el('p', 'lines-message');
  message.id = 'lines-message';
  message.hidden = true;
  const tree = el('div', 'lines-tree');
  tree.id = 'lines-tree';
  const stations = el('ol', 'lines-stations');
  stations.id = 'lines-stations';
  stations.hidden = true;
  panel.append(head, sub, message, tree, stations);
  document.body.appendChild(panel);

  const openButton = el('button', 'lines-open', tr('button'));
  openButton.id = 'lines-open';
  openButton.type = 'button';
  openButton.setAttribute('aria-pressed', 'false');
  ($('toolbar') || document.body).appendChild(openButton);
  function $(id) { return document.getElementById(id); }

  const state = {
    open: false,
    tree: null,          // /api/lines answer
    treeStale: true,
    line: null,          // /api/line answer of the chosen line
    loads: 0,            // answers drawn (tree or line), for the tests
  };

  const pane = map.createPane('eki-line');
  pane.style.zIndex = 450;  // above the pins' overlay pane, under tooltips and callouts
  const layer = L.featureGroup().addTo(map);

  function busy(on) { panel.dataset.busy = on ? '1' : '0'; }

  function showMessage(text) {
    message.textContent = text || '';
    message.hidden = !text;
  }

  // --- The tree: operator type → operator → line -----------------------------------------------

  function countText(visited, total) { return tr('lineCount', visited, total); }

  function sums(lines) {
    return lines.reduce((a, l) => [a[0] + l.visited, a[1] + l.total], [0, 0]);
  }

  function group(className, label, visited, total, open) {
    const d = el('details', className);
    d.open = open;
    const s = el('summary');
    s.append(el('span', 'name', label), el('span', 'nm', countText(visited, total)));
    d.appendChild(s);
    return d;
  }

  function drawTree() {
    tree.innerHTML = '';
    const t = state.tree;
    if (!t.types.length) showMessage(tr('none'));
    for (const type of t.types) {
      const all = type.operators.flatMap((o) => o.lines);
      const [tv, tt] = sums(all);
      const td = group('lines-type', type.type, tv, tt, true);
      td.dataset.type = type.type;
      for (const op of type.operators) {
        const [ov, ot] = sums(op.lines);
        const od = group('lines-operator', op.name, ov, ot, false);
        od.dataset.operator = op.id;
        const ul = el('ul');
        for (const line of op.lines) {
          const li = el('li', 'lines-line' + (line.total > 0 && line.visited === line.total ? ' done' : ''));
          li.dataset.id = line.id;
          li.dataset.name = line.name;
          const sw = el('span', 'swatch');
          if (line.color) sw.style.background = line.color;
          li.append(sw, el('span', 'name', line.name + (line.class === 'shinkansen' && !line.name.includes('新幹線') ? `（${tr('shinkansen')}）` : '')),
                    el('span', 'nm', countText(line.visited, line.total)));
          li.onclick = () => showLine(line.id);
          ul.appendChild(li);
        }
        od.appendChild(ul);
        td.appendChild(od);
      }
      tree.appendChild(td);
    }
  }

  async function loadTree() {
    busy(true);
    try {
      state.tree = await getJSON('/api/lines');
      state.treeStale = false;
      if (!state.line) showTreeView();
      state.loads += 1;
    } catch (e) {
      showMessage(tr('failed', e.message));
    } finally {
      busy(false);
    }
  }

  function showTreeView() {
    state.line = null;
    layer.clearLayers();
    back.hidden = true;
    stations.hidden = true;
    tree.hidden = false;
    panel.classList.remove('with-line');
    title.textContent = tr('title');
    sub.textContent = '';
    showMessage('');
    if (state.tree) {
      count.textContent = countText(state.tree.visited, state.tree.total);
      drawTree();
    } else {
      count.textContent = '';
      showMessage(tr('loading'));
    }
  }

  // --- One line: its stations in order, and its stroke on the map ------------------------------

  async function showLine(id) {
    openPanel(false);
    busy(true);
    try {
      const line = await getJSON(`/api/line?${new URLSearchParams({ id })}`);
      state.line = line;
      drawLine(line);
      state.loads += 1;
    } catch (e) {
      showMessage(tr('failed', e.message));
    } finally {
      busy(false);
    }
  }

  function drawLine(line, fit = true) {
    tree.hidden = true;
    back.hidden = false;
    stations.hidden = false;
    panel.classList.add('with-line');
    panel.dataset.line = line.id;
    showMessage('');
    title.textContent = line.name;
    count.textContent = countText(line.visited, line.total);
    sub.textContent = [line.operator, line.class === 'shinkansen' ? tr('shinkansen') : null, line.loop ? tr('loop') : null,
      tr('stations', line.stations.length)].filter(Boolean).join('・');
    stations.innerHTML = '';
    let branch = line.stations.length ? line.stations[0].branch : 0;
    for (const s of line.stations) {
      if (s.branch !== branch) {
        branch = s.branch;
        stations.appendChild(el('li', 'lines-branch', tr('branch', branch)));
      }
      const li = el('li', s.visited ? 'visited' : 'unvisited');
      li.dataset.key = s.key;
      li.append(el('span', 'dot'), el('span', 'name', s.name), el('span', 'sub', s.completed || ''));
      li.onclick = () => eki.openStation(s.key);
      stations.appendChild(li);
    }

    layer.clearLayers();
    const colour = line.color || '#2b6cb0';
    const parts = (line.geometry && line.geometry.coordinates || []).map((part) => part.map(([lon, lat]) => [lat, lon]));
    if (parts.length) {
      L.polyline(parts, { pane: 'eki-line', color: '#fff', weight: 9, opacity: 0.9, interactive: false }).addTo(layer);
      L.polyline(parts, { pane: 'eki-line', color: colour, weight: 5, opacity: 0.95, interactive: false, className: 'line-stroke' }).addTo(layer);
    }
    for (const s of line.stations) {
      const m = L.circleMarker([s.lat, s.lon], {
        pane: 'eki-line', radius: 6, weight: 2.5, color: colour, fillColor: s.visited ? '#1a9b3c' : '#dd3333', fillOpacity: 1,
        className: 'line-station',
      });
      m.bindTooltip(s.name, { direction: 'top', offset: [0, -6] });
      m.on('click', () => eki.openStation(s.key));
      m.addTo(layer);
      const e = m.getElement();
      if (e) e.dataset.key = s.key;
    }
    if (fit && layer.getLayers().length) fitLine();
  }

  // Fits the line into the part of the map the panel leaves free.
  function fitLine() {
    const mapBox = map.getContainer().getBoundingClientRect();
    const box = panel.getBoundingClientRect();
    let right = 0, bottom = 0;
    if (!panel.hidden && box.width && box.height) {
      if (box.top > mapBox.top + mapBox.height / 4) bottom = Math.max(0, mapBox.bottom - box.top);
      else right = Math.max(0, mapBox.right - box.left);
    }
    map.fitBounds(layer.getBounds(), { paddingTopLeft: [30, 30], paddingBottomRight: [30 + right, 30 + bottom], maxZoom: 15 });
  }

  // --- Opening and closing ----------------------------------------------------------------------

  const narrow = window.matchMedia('(max-width: 799px)');

  function listOpen() { const l = $('list'); return l && !l.hidden; }

  function closeList() {
    if (!listOpen()) return;
    if (typeof eki.closeList === 'function') eki.closeList();
    else {
      const b = document.querySelector('#mode button[data-value="map"]');
      if (b) b.click();
    }
  }

  function openPanel(showTree = true) {
    closeList();
    if (!state.open) {
      state.open = true;
      panel.hidden = false;
      openButton.classList.add('on');
      openButton.setAttribute('aria-pressed', 'true');
      placeAround();
    }
    if (showTree) {
      showTreeView();
      if (state.treeStale || !state.tree) loadTree();
    }
  }

  function closePanel() {
    state.open = false;
    state.line = null;
    layer.clearLayers();
    panel.hidden = true;
    delete panel.dataset.line;
    openButton.classList.remove('on');
    openButton.setAttribute('aria-pressed', 'false');
  }

  openButton.addEventListener('click', () => (state.open ? closePanel() : openPanel()));
  closeButton.addEventListener('click', closePanel);
  back.addEventListener('click', () => { showTreeView(); if (state.treeStale) loadTree(); });

  // 一覧 takes the same place: opening it closes this panel.
  document.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('#mode button[data-value="list"], #list-open')) closePanel();
  }, true);

  // On a narrow screen the station screen and this panel would overlap: the panel steps aside
  // while the station screen is open.
  function placeAround() {
    const st = $('station');
    panel.classList.toggle('covered', !!(st && !st.hidden && narrow.matches));
  }
  const station = $('station');
  if (station) new MutationObserver(placeAround).observe(station, { attributes: true, attributeFilter: ['hidden'] });
  narrow.addEventListener('change', placeAround);

  // --- The station screen: each line with n/m, a link to it ------------------------------------

  document.addEventListener('eki:station', (e) => {
    const p = e.detail && e.detail.properties;
    if (!p || !Array.isArray(p.line_stats)) return;
    const dd = $('st-lines');
    if (dd) {
      dd.innerHTML = '';
      const ul = el('ul', 'st-line-stats');
      for (const ls of p.line_stats) {
        const li = el('li');
        const a = el('a', 'st-line', ls.name);
        a.href = '#';
        a.dataset.id = ls.id;
        a.onclick = (ev) => {
          ev.preventDefault();
          if (narrow.matches) { const c = $('station-close'); if (c) c.click(); }
          showLine(ls.id);
        };
        li.append(a, el('span', 'nm', countText(ls.visited, ls.total)));
        ul.appendChild(li);
      }
      if (p.line_stats.length) dd.appendChild(ul); else dd.textContent = '-';
    }
    // A visit recorded or removed: the counts change.
    let changed = false;
    for (const ls of p.line_stats) {
      if (state.line && ls.id === state.line.id && ls.visited !== state.line.visited) changed = true;
      const cached = state.tree && state.tree.types.flatMap((t) => t.operators.flatMap((o) => o.lines)).find((l) => l.id === ls.id);
      if (cached && cached.visited !== ls.visited) state.treeStale = true;
    }
    const inLine = state.line && state.line.stations.find((s) => s.key === p.key);
    if (inLine && inLine.visited !== p.visited) changed = true;
    if (changed && state.open && state.line) refreshLine();
    if (state.treeStale && state.open && !state.line) loadTree();
  });

  async function refreshLine() {
    const id = state.line.id;
    busy(true);
    try {
      const line = await getJSON(`/api/line?${new URLSearchParams({ id })}`);
      if (!state.line || state.line.id !== id) return;
      state.line = line;
      drawLine(line, false);
      state.loads += 1;
    } catch (e) {
      showMessage(tr('failed', e.message));
    } finally {
      busy(false);
    }
  }

  busy(false);
  eki.lines = { state, open: openPanel, close: closePanel, showLine, layer };
})();
