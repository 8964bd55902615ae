// 路線: the app's 路線 tab as a panel (#lines, where 一覧 sits). Operator type (JR, 大手私鉄, …)
// → operator → line with visited/total (GET /api/lines, grouped as `eki lines` groups them, the
// toolbar's filter keeping the lines with a visited station or with one not yet visited); a
// line lists its stations in line order with visited marks (GET /api/line?id=) and is drawn on
// the map with its stations, fitted to the part of the map left free. The station screen's 路線
// row becomes one link per line with its n/m (`line_stats` of /api/station). Loaded last; uses
// eki.map, eki.openStation, eki.closeList, eki.layout, eki.t and the events eki:station / eki:list.
'use strict';

(() => {
  const eki = window.eki;
  if (!eki || !eki.map) return;
  const map = eki.map;
  const $ = (id) => document.getElementById(id);

  eki.addStrings({
    ja: {
      'lines.button': '路線', 'lines.title': '路線', 'lines.back': '‹ 路線一覧', 'lines.loading': '読み込み中…',
      'lines.failed': '路線を読めません：{0}', 'lines.none': '路線がありません', 'lines.count': '{0}/{1}',
      'lines.lineCount': '{0} 路線', 'lines.sep': '・', 'lines.branch': '支線 {0}', 'lines.unordered': '順序不明', 'lines.loop': '環状', 'lines.stations': '{0} 駅', 'lines.shinkansen': '新幹線',
      'lines.type.JR': 'JR', 'lines.type.大手私鉄': '大手私鉄', 'lines.type.準大手私鉄': '準大手私鉄', 'lines.type.公営': '公営',
      'lines.type.第三セクター': '第三セクター', 'lines.type.中小私鉄': '中小私鉄', 'lines.type.路面電車': '路面電車',
      'lines.type.モノレール・新交通': 'モノレール・新交通', 'lines.type.ケーブルカー': 'ケーブルカー', 'lines.type.その他': 'その他',
    },
    en: {
      'lines.button': 'Lines', 'lines.title': 'Lines', 'lines.back': '‹ All lines', 'lines.loading': 'Loading…',
      'lines.failed': 'cannot read the lines: {0}', 'lines.none': 'no lines', 'lines.count': '{0}/{1}',
      'lines.lineCount': '{0} lines', 'lines.sep': ' · ', 'lines.branch': 'branch {0}', 'lines.unordered': 'order unknown', 'lines.loop': 'loop', 'lines.stations': '{0} stations', 'lines.shinkansen': 'Shinkansen',
      'lines.type.JR': 'JR', 'lines.type.大手私鉄': 'Major private railways', 'lines.type.準大手私鉄': 'Semi-major private railways',
      'lines.type.公営': 'Public railways', 'lines.type.第三セクター': 'Third-sector railways',
      'lines.type.中小私鉄': 'Smaller private railways', 'lines.type.路面電車': 'Trams',
      'lines.type.モノレール・新交通': 'Monorails and people movers', 'lines.type.ケーブルカー': 'Cable cars',
      'lines.type.その他': 'Other',
    },
  });
  const t = eki.t;

  const panel = $('lines'), openButton = $('lines-open'), back = $('lines-back'), title = $('lines-title');
  const count = $('lines-count'), sub = $('lines-sub'), message = $('lines-message');
  const tree = $('lines-tree'), stations = $('lines-stations');
  if (!panel || !openButton) return;
  eki.applyI18n(panel);
  panel.setAttribute('aria-label', t('lines.title'));
  eki.applyI18n(openButton.parentElement);

  const state = {
    open: false,
    tree: null,          // the /api/lines answer
    treeStale: true,     // a visit changed since it was read
    line: null,          // the /api/line answer of the line shown
    loads: 0,            // answers drawn (tree or line), for the tests
  };
  const layer = L.featureGroup().addTo(map);
  // The chosen line above the pins, its stations above the clusters (which dim meanwhile).
  map.createPane('ekiLineShown').style.zIndex = '450';
  map.createPane('ekiLineStations').style.zIndex = '640';

  function el(tag, className, text, data) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    if (data) e.translate = false;  // names from the data, not words of the page
    return e;
  }

  function busy(on) { panel.dataset.busy = on ? '1' : '0'; }

  function showMessage(text) {
    message.textContent = text || '';
    message.hidden = !text;
  }

  async function getJSON(url) {
    const r = await fetch(url, { headers: { Accept: 'application/json' } });
    const body = await r.json().catch(() => ({ message: `HTTP ${r.status}` }));
    if (!r.ok) throw new Error(body.message || `HTTP ${r.status}`);
    return body;
  }

  const countText = (visited, total) => t('lines.count', visited, total);

  function typeName(type) {
    const key = `lines.type.${type}`;
    const s = t(key);
    return s === key ? null : s;
  }

  // --- The tree: operator type → operator → line -----------------------------------------------

  // A group's n/m sums its lines' (as `eki lines` totals them: a station on two lines counts twice).
  function group(className, label, isData, lines, open) {
    const d = el('details', className);
    d.open = open;
    const s = el('summary');
    const [visited, total] = lines.reduce((a, l) => [a[0] + l.visited, a[1] + l.total], [0, 0]);
    s.append(el('span', 'name', label, isData), el('span', 'lines-n', t('lines.lineCount', lines.length)),
             el('span', 'nm', countText(visited, total)));
    d.appendChild(s);
    return d;
  }

  function drawTree() {
    tree.innerHTML = '';
    if (!state.tree.types.length) showMessage(t('lines.none'));
    for (const type of state.tree.types) {
      const named = typeName(type.type);
      const td = group('lines-type', named || type.type, !named, type.operators.flatMap((o) => o.lines), true);
      td.dataset.type = type.type;
      for (const op of type.operators) {
        const od = group('lines-operator', op.name, true, op.lines, false);
        od.dataset.operator = op.id;
        const ul = el('ul');
        for (const line of op.lines) {
          const li = el('li', 'lines-line' + (line.total > 0 && line.visited === line.total ? ' done' : ''));
          li.dataset.id = line.id;
          li.dataset.name = line.name;
          const sw = el('span', 'swatch');
          if (line.color) sw.style.background = line.color;
          li.append(sw, el('span', 'name', line.name, true), el('span', 'nm', countText(line.visited, line.total)));
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
      const filter = eki.state.filter || 'all';
      const answer = await getJSON(`/api/lines?${new URLSearchParams({ filter })}`);
      answer.filter = filter;
      state.tree = answer;
      state.treeStale = false;
      if (state.open && !state.line) showTreeView();
      state.loads += 1;
    } catch (e) {
      showMessage(t('lines.failed', e.message));
    } finally {
      busy(false);
    }
  }

  function setView(withLine) {
    panel.classList.toggle('with-line', withLine);
    tree.hidden = withLine;
    stations.hidden = !withLine;
    back.hidden = !withLine;
    eki.layout();  // a phone's sheet changes height with the view
  }

  function showTreeView() {
    state.line = null;
    delete panel.dataset.line;
    clearLine();
    setView(false);
    title.textContent = t('lines.title');
    title.translate = true;
    sub.textContent = '';
    showMessage('');
    if (state.tree) {
      count.textContent = countText(state.tree.visited, state.tree.total);
      drawTree();
    } else {
      count.textContent = '';
      showMessage(t('lines.loading'));
    }
  }

  // --- One line: its stations in order, and its stroke on the map ------------------------------

  async function showLine(id, fit = true) {
    openPanel(false);
    busy(true);
    try {
      const line = await getJSON(`/api/line?${new URLSearchParams({ id })}`);
      if (!state.open || (!fit && (!state.line || state.line.id !== id))) return;
      state.line = line;
      drawLine(line, fit);
      state.loads += 1;
    } catch (e) {
      showMessage(t('lines.failed', e.message));
    } finally {
      busy(false);
    }
  }

  function drawLine(line, fit) {
    setView(true);
    panel.dataset.line = line.id;
    showMessage('');
    title.textContent = line.name;
    title.translate = false;
    count.textContent = countText(line.visited, line.total);
    sub.innerHTML = '';
    sub.append(el('span', '', line.operator, true));
    for (const w of [line.class === 'shinkansen' ? t('lines.shinkansen') : null, line.loop ? t('lines.loop') : null,
      t('lines.stations', line.stations.length)]) if (w) sub.append(el('span', '', t('lines.sep') + w));

    stations.innerHTML = '';
    // A header where a branch starts, and before the entries no ordered source places (last).
    const part = (s) => (s.order === null ? 'unordered' : s.branch);
    let current = 0;
    for (const s of line.stations) {
      if (part(s) !== current) {
        current = part(s);
        stations.appendChild(el('li', 'lines-branch', current === 'unordered' ? t('lines.unordered') : t('lines.branch', current)));
      }
      const li = el('li', s.visited ? 'visited' : 'unvisited');
      li.dataset.key = s.key;
      li.append(el('span', 'dot'), el('span', 'name', s.name, true), el('span', 'sub', s.completed || ''));
      li.onclick = () => eki.openStation(s.key);
      stations.appendChild(li);
    }

    layer.clearLayers();
    document.body.classList.add('line-shown');
    const colour = line.color || '#2b6cb0';
    const pane = 'ekiLineShown';
    const parts = ((line.geometry && line.geometry.coordinates) || []).map((part) => part.map(([lon, lat]) => [lat, lon]));
    if (parts.length) {
      L.polyline(parts, { pane, color: '#fff', weight: 9, opacity: 0.9, interactive: false }).addTo(layer);
      L.polyline(parts, { pane, color: colour, weight: 5, opacity: 0.95, interactive: false, className: 'line-stroke' }).addTo(layer);
    }
    for (const s of line.stations) {
      const m = L.circleMarker([s.lat, s.lon], {
        pane: 'ekiLineStations', radius: 5.5, weight: 2.5, color: colour, fillColor: s.visited ? '#1a9b3c' : '#dd3333',
        fillOpacity: 1, className: 'line-station',
      });
      m.bindTooltip(s.name, { direction: 'top', offset: [0, -6], className: 'line-tip' });
      m.on('click', () => eki.openStation(s.key));
      m.addTo(layer);
      const e = m.getElement();
      if (e) e.dataset.key = s.key;
    }
    if (fit && layer.getLayers().length) fitLine();
  }

  function clearLine() {
    layer.clearLayers();
    document.body.classList.remove('line-shown');
  }

  // Fits the line into the part of the map the bars and panels leave free (the page's layout
  // variables: --top, --bottom, --pl, --pr, --sheet).
  function fitLine() {
    const css = getComputedStyle(document.documentElement);
    const px = (name) => parseFloat(css.getPropertyValue(name)) || 0;
    map.fitBounds(layer.getBounds(), {
      paddingTopLeft: [px('--pl') + 24, px('--top') + 24],
      paddingBottomRight: [px('--pr') + 24, px('--bottom') + px('--sheet') + 24],
      maxZoom: 15,
    });
  }

  // --- Opening and closing ----------------------------------------------------------------------

  // On a phone the station screen and this panel share the sheet (the page hides the panel
  // while the station screen is open).
  const covered = () => document.body.classList.contains('narrow') && !$('station').hidden;

  function openPanel(showTree = true) {
    if (covered()) $('station-close').click();  // the station screen gives way
    if (!state.open) {
      if (eki.state.mode === 'list') eki.closeList();
      state.open = true;
      panel.hidden = false;
      openButton.classList.add('on');
      openButton.setAttribute('aria-pressed', 'true');
    }
    if (showTree) {
      showTreeView();
      if (state.treeStale || !state.tree || state.tree.filter !== eki.state.filter) loadTree();
    }
  }

  function closePanel() {
    if (!state.open) return;
    state.open = false;
    state.line = null;
    delete panel.dataset.line;
    clearLine();
    panel.hidden = true;
    openButton.classList.remove('on');
    openButton.setAttribute('aria-pressed', 'false');
  }

  openButton.addEventListener('click', () => {
    if (state.open && covered()) $('station-close').click();  // uncover it, as it was
    else if (state.open) closePanel();
    else openPanel();
  });
  $('lines-close').addEventListener('click', closePanel);
  back.addEventListener('click', () => {
    showTreeView();
    if (state.treeStale || state.tree.filter !== eki.state.filter) loadTree();
  });
  // The toolbar's 全駅 / 乗下車済駅のみ / 未乗下車駅のみ: the lines with a visited station, or with one
  // not yet visited (/api/lines?filter=).
  $('filter').addEventListener('click', () => setTimeout(() => {
    if (state.open && !state.line && state.tree && state.tree.filter !== eki.state.filter) loadTree();
  }));
  // 一覧 takes the same place: opening it closes this panel.
  document.addEventListener('eki:list', (e) => { if (e.detail && e.detail.open) closePanel(); });

  // --- The station screen: each line with n/m, a link to it ------------------------------------

  document.addEventListener('eki:station', (e) => {
    const p = e.detail && e.detail.properties;
    if (!p || !Array.isArray(p.line_stats)) return;
    const dd = $('st-lines');
    dd.innerHTML = '';
    const ul = el('ul', 'st-line-stats');
    for (const ls of p.line_stats) {
      const li = el('li');
      const a = el('a', 'st-line', ls.name, true);
      a.href = '#';
      a.dataset.id = ls.id;
      a.onclick = (ev) => {
        ev.preventDefault();
        showLine(ls.id);
      };
      li.append(a, el('span', 'nm', countText(ls.visited, ls.total)));
      ul.appendChild(li);
    }
    if (p.line_stats.length) dd.appendChild(ul); else dd.textContent = '-';

    // A visit recorded or removed: the counts change.
    const cached = state.tree ? state.tree.types.flatMap((ty) => ty.operators.flatMap((o) => o.lines)) : [];
    let lineChanged = false;
    for (const ls of p.line_stats) {
      if (state.line && ls.id === state.line.id && ls.visited !== state.line.visited) lineChanged = true;
      const c = cached.find((l) => l.id === ls.id);
      if (c && c.visited !== ls.visited) state.treeStale = true;
    }
    const shown = state.line && state.line.stations.find((s) => s.key === p.key);
    if (shown && shown.visited !== p.visited) lineChanged = true;
    if (!state.open) return;
    if (lineChanged) showLine(state.line.id, false);
    else if (state.treeStale && !state.line) loadTree();
  });

  busy(false);
  eki.lines = { state, open: openPanel, close: closePanel, showLine, layer };
})();
