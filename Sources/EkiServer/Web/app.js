// The map screen of 降りつぶし, wired together: what a view change loads (clusters below
// config.clusterBelowZoom, else the pins: /api/bbox, or /api/search while a search filters),
// the toolbar (全駅 / 乗下車済駅のみ / 未乗下車駅のみ, 地図 / 空撮 / 複合 / 一覧), 一覧 (the stations in
// view nearest the centre first, or one stack's entries), the bars a map tap hides and shows, the
// layout every panel takes from the bars' measured size, and ◎ (you are here).
'use strict';

// --- Loading a view --------------------------------------------------------------------------

let pending = null;
let listPending = null;

function boundsParam() {
  const b = map.getBounds();
  const w = Math.max(-180, b.getWest()), s = Math.max(-90, b.getSouth());
  const e = Math.min(180, b.getEast()), n = Math.min(90, b.getNorth());
  return [w, s, e, n].map((x) => x.toFixed(6)).join(',');
}

async function reload() {
  if (pending) pending.abort();
  const ctl = new AbortController();
  pending = ctl;
  setBusy(true);
  try {
    if (clusterView()) {
      const q = new URLSearchParams({ bbox: boundsParam(), zoom: String(map.getZoom()), filter: state.filter });
      state.lastURL = `/api/clusters?${q}`;
      let answer;
      try {
        answer = await getJSON(state.lastURL, ctl.signal);
      } catch (e) {
        if (e.status !== 404) throw e;
        state.clustersMissing = true;  // a server without clusters: pins at every zoom
        return reload();
      }
      if (ctl.signal.aborted) return;
      state.features = [];
      state.total = answer.total;
      showPins([]);
      showClusters(answer.clusters);
      notice('pins', '');
    } else {
      let fc;
      if (state.search) {
        const q = new URLSearchParams({ q: state.search.q, by: state.search.by, match: state.search.match,
          limit: String(config.pins), filter: state.filter });
        const c = map.getCenter();
        q.set('near', `${c.lat.toFixed(6)},${c.lng.toFixed(6)}`);
        state.lastURL = `/api/search?${q}`;
        fc = await getJSON(state.lastURL, ctl.signal);
        fc.total = fc.features.length;
        notice('pins', fc.features.length ? '' : tx('noMatch', state.search.q));
      } else {
        const q = new URLSearchParams({ bbox: boundsParam(), limit: String(config.pins), filter: state.filter });
        state.lastURL = `/api/bbox?${q}`;
        fc = await getJSON(state.lastURL, ctl.signal);
        const more = fc.total - fc.features.length;
        notice('pins', more > 0 ? tx('more', more.toLocaleString()) : '');
      }
      if (ctl.signal.aborted) return;
      state.features = fc.features;
      state.total = fc.total;
      showClusters([]);
      showPins(fc.features);
    }
    state.loads += 1;
    if (state.firstPaintMs === null) {
      state.firstPaintMs = performance.now();
      state.firstPaintOffline = stations.status.offline;
      if (basemap.deferred) loadLinework();
      afterFirstPaint();
    }
    if (state.mode === 'list' && !state.listPlace) await renderList();
  } catch (e) {
    if (e.name === 'AbortError') return;
    notice('pins', tx('cannotLoad', e.message));
  } finally {
    if (pending === ctl) { pending = null; setBusy(!!listPending); }
  }
}

let timer = null;
function scheduleReload() {
  clearTimeout(timer);
  setBusy(true);
  timer = setTimeout(reload, 120);
}

map.on('moveend', () => {
  writeHash();
  if (!state.search) scheduleReload(); else if (state.mode === 'list' && !state.listPlace) renderList();
});

// --- 一覧 ------------------------------------------------------------------------------------

function distanceText(m) { return m < 1000 ? t('m', Math.round(m)) : t('km', (m / 1000).toFixed(2)); }

function stationRow(f) {
  const p = f.properties;
  const li = document.createElement('li');
  li.dataset.key = p.key;
  li.className = (p.visited ? 'visited' : 'unvisited') + (p.status === 'suspended' ? ' suspended' : '');
  const d = p.distance_m !== undefined ? p.distance_m : map.getCenter().distanceTo([f.geometry.coordinates[1], f.geometry.coordinates[0]]);
  li.innerHTML = `<span class="dot"></span><span class="name" translate="no">${escapeHTML(p.name)}</span>` +
    `<span class="sub"><span translate="no">${escapeHTML(operatorName(p))}</span>${p.class === 'shinkansen' ? escapeHTML(t('withShinkansen')) : ''}` +
    `${t('gap')}<span translate="no">${escapeHTML(p.lines.join(t('listSep')))}</span></span><span class="dist">${distanceText(d)}</span>`;
  li.onclick = () => openStation(p.key);
  return li;
}

function fillList(titleHTML, rows) {
  $('list-title').innerHTML = titleHTML;
  $('list-rows').replaceChildren(...rows);
}

async function renderList() {
  if (state.places.length) {
    fillList(tx('placesTitle', state.placeQuery), state.places.map((f) => {
      const li = document.createElement('li');
      li.className = 'place-row';
      li.dataset.title = f.properties.title;
      li.innerHTML = `<span class="name" translate="no">${escapeHTML(f.properties.title)}</span><span class="sub" translate="no">${escapeHTML(f.properties.provider)}</span>`;
      li.onclick = () => goToPlace(f);
      return li;
    }));
    return;
  }
  if (state.listPlace) {
    const fs = state.listPlace.features;
    fillList(tx('stackTitle', fs[0].properties.name, fs.length), fs.map(stationRow));
    return;
  }
  if (state.search) {
    // The matches, nearest the map centre first (the search asked with near=centre).
    fillList(tx('searchTitle', state.search.q, state.features.length), state.features.map(stationRow));
    return;
  }
  // The stations in view, nearest the map centre first: /api/nearest from the centre, kept while
  // inside the view.
  if (listPending) listPending.abort();
  const ctl = new AbortController();
  listPending = ctl;
  setBusy(true);
  let features;
  try {
    const c = map.getCenter(), b = map.getBounds();
    const q = new URLSearchParams({ lat: c.lat.toFixed(7), lon: c.lng.toFixed(7), k: String(config.pins), filter: state.filter });
    state.listURL = `/api/nearest?${q}`;
    const fc = await getJSON(state.listURL, ctl.signal);
    features = fc.features.filter((f) => b.contains(L.latLng(f.geometry.coordinates[1], f.geometry.coordinates[0])));
  } catch (e) {
    if (e.name !== 'AbortError') { console.error(e); notice('list', tx('cannotList', e.message), 8000); }
    return;
  } finally {
    if (listPending === ctl) { listPending = null; setBusy(!!pending); }
  }
  fillList(tx('listTitle', features.length), features.map(stationRow));
}

function openList() {
  state.mode = 'list';
  selectSegment('mode', 'list');
  $('list').hidden = false;
  document.dispatchEvent(new CustomEvent('eki:list', { detail: { open: true } }));
  renderList();
}

function closeList() {
  state.mode = 'map';
  state.listPlace = null;
  $('list').hidden = true;
  selectSegment('mode', state.layer);
  document.dispatchEvent(new CustomEvent('eki:list', { detail: { open: false } }));
}

// A stack's tap: 一覧 for that place only, the place kept in sight beside or above the panel.
function openStackList(features, latlng) {
  map.closePopup();
  state.listPlace = { features };
  openList();
  if (latlng) keepInView(latlng);
}

// Pans the map so that latlng lies in the part of the map no bar or panel covers.
function keepInView(latlng) {
  layout();
  const px = (v) => parseFloat(document.documentElement.style.getPropertyValue(v)) || 0;
  const free = { left: px('--pl'), right: window.innerWidth - px('--pr'), top: px('--top'),
                 bottom: window.innerHeight - px('--bottom') - px('--sheet') };
  const p = map.latLngToContainerPoint(latlng), margin = 40;
  if (p.x >= free.left + margin && p.x <= free.right - margin && p.y >= free.top + margin && p.y <= free.bottom - margin) return;
  map.panBy([p.x - (free.left + free.right) / 2, p.y - (free.top + free.bottom) / 2]);
}

segmented('mode', (v) => {
  if (v === 'list') { state.listPlace = null; openList(); return; }
  state.layer = v;
  if (state.mode === 'list') closeList();
  applyLayer();
});

segmented('filter', (v) => { state.filter = v; state.listPlace = null; reload(); });

// --- The bars: a tap on an empty part of the map hides or shows both ---------------------------

let popupOpen = false, popupAtPress = false, tapTimer = null;
map.on('popupopen', () => { popupOpen = true; });
map.on('popupclose', () => { popupOpen = false; });
map.on('preclick', () => { popupAtPress = popupOpen; });
map.on('click', () => {
  if (popupAtPress) return;  // that tap closed a callout
  clearTimeout(tapTimer);
  tapTimer = setTimeout(() => setBars(document.body.classList.contains('bars-hidden')), 260);
});
map.on('dblclick zoomstart', () => clearTimeout(tapTimer));

function setBars(shown) {
  document.body.classList.toggle('bars-hidden', !shown);
  if (!shown) { $('q').blur(); setSearching(false); }
  layout();
}

// --- Layout: panels and Leaflet's corners from the bars' measured size ---------------------------

// Sets on <html>: --top / --bottom (the bars' inner edges, 0 while hidden), --pl / --pr (the
// width of an open side panel, wide screens) and --sheet (the open bottom sheet, phones).
function layout() {
  const root = document.documentElement.style;
  const hidden = document.body.classList.contains('bars-hidden');
  const narrow = window.innerWidth < 700;
  document.body.classList.toggle('narrow', narrow);
  const stationOpen = !$('station').hidden;
  document.body.classList.toggle('station-open', stationOpen);
  // Layout boxes (offset*), not the transformed ones: the bars slide while they hide and show.
  root.setProperty('--top', `${hidden ? 0 : $('top').offsetTop + $('top').offsetHeight}px`);
  root.setProperty('--bottom', `${hidden ? 0 : window.innerHeight - $('toolbar').offsetTop}px`);
  const right = [...document.querySelectorAll('.panel.right')].find((el) => !el.hidden && el.offsetParent !== null);
  const width = (el) => (el ? Math.ceil(el.getBoundingClientRect().width) : 0);
  root.setProperty('--pl', `${narrow || !stationOpen ? 0 : width($('station'))}px`);
  root.setProperty('--pr', `${narrow ? 0 : width(right)}px`);
  const sheet = narrow ? (stationOpen ? $('station') : right) : null;
  root.setProperty('--sheet', `${sheet ? Math.ceil(sheet.getBoundingClientRect().height) : 0}px`);
}

new ResizeObserver(layout).observe($('top'));
new ResizeObserver(layout).observe($('toolbar'));
window.addEventListener('resize', layout);
new MutationObserver(layout).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['hidden'] });

// --- ◎: you are here -------------------------------------------------------------------------

const hereLayer = L.layerGroup().addTo(map);
function showHere(pos) {
  const { latitude: lat, longitude: lon, accuracy } = pos.coords;
  hereLayer.clearLayers();
  if (accuracy) L.circle([lat, lon], { radius: accuracy, interactive: false, color: '#1f6fd1', weight: 1, fillOpacity: 0.08 }).addTo(hereLayer);
  L.circleMarker([lat, lon], { radius: 7, color: '#fff', weight: 3, fillColor: '#1f6fd1', fillOpacity: 1, className: 'here', interactive: false })
    .bindTooltip(t('youAreHere'), { direction: 'top', offset: [0, -8] }).addTo(hereLayer);
  state.here = { lat, lon, accuracy };
  map.setView([lat, lon], Math.max(map.getZoom(), 15));
}

if (navigator.geolocation) {
  $('locate').addEventListener('click', () => {
    navigator.geolocation.getCurrentPosition(showHere, (err) => notice('here', tx('noPosition', err.message), 8000),
      { enableHighAccuracy: true, timeout: 10000 });
  });
} else {
  $('locate').hidden = true;
}

// --- For the other scripts (lines.js) and the browser tests ---------------------------------------

// --- Offline: the service worker, and the view again when the network returns -------------------

// The service worker (sw.js) keeps the page, Leaflet and the station snapshot for offline use.
// Registered once the first view is drawn (its install fetches the shell and the snapshot: not
// while the first pins are loading), as the snapshot is read then too, so that the page can go
// on drawing when the network drops.
const serviceWorker = { registered: false, error: null };
function afterFirstPaint() {
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => { serviceWorker.registered = true; },
      (e) => { serviceWorker.error = e.message; console.error('service worker', e); });
  }
  const later = window.requestIdleCallback || ((f) => setTimeout(f, 1500));
  later(() => stations.load().catch(() => {}), { timeout: 5000 });
}
document.addEventListener('eki:network', (e) => { if (!e.detail.offline) { reload(); } });

Object.assign(window.eki, {
  map, state, config, layout, closeList, openList, openStation, linePane: 'ekiLine', visits, stations, serviceWorker,
  markers: pins.markers,
  pins: () => state.features.map((f) => ({ key: f.properties.key, name: f.properties.name, visited: f.properties.visited })),
  created: () => ({ pins: pins.created, clusters: clusters.created, names: names.created }),
  markerIds: () => pins.ids(),
  clusters: () => state.clusters.map((c) => ({ id: c.id, prefecture: c.prefecture, total: c.total, visited: c.visited })),
  stacks: () => [...pins.markers.values()].filter((m) => m.features.length > 1).map((m) => m.features.map((f) => f.properties.key)),
  tiles: () => ({ map: { loads: streets.loads, errors: streets.errors, failed: streets.failed, shown: !!streets.layer && map.hasLayer(streets.layer) },
                  aerial: { loads: aerial.loads, errors: aerial.errors, failed: aerial.failed, shown: !!aerial.layer && map.hasLayer(aerial.layer) } }),
  basemap: () => ({ overlay: basemap.overlay, lines: basemap.linework && map.hasLayer(basemap.linework) ? basemap.lines : 0,
                    names: basemap.names, prefectures: !!basemap.prefectures }),
});

// The static words, once every script (lines.js too) has added its strings.
document.addEventListener('DOMContentLoaded', () => window.eki.applyI18n(document));
document.title = t('title');
applyLayer();
layout();
writeHash();
reload();
