// The map screen of 降りつぶし: pins (red = not yet got on or off there, green = done), the
// 全駅 / 乗下車済駅のみ / 未乗下車駅のみ toolbar, 一覧 (the stations in view, nearest the centre
// first), the search bar (駅名 / 読み / 路線 filter the pins; 地点 only moves the map) and the
// station screen with 「今日乗下車しました」. Plain JavaScript over the JSON API under /api/.
'use strict';

const config = JSON.parse(document.querySelector('meta[name="eki-config"]').content);
const token = document.querySelector('meta[name="eki-token"]').content;
const $ = (id) => document.getElementById(id);

// State read by the page and by the browser tests (window.eki).
const state = {
  filter: 'all', mode: 'map', scope: 'name', match: 'prefix',
  search: null,        // {q, by, match} while a database search filters the pins
  features: [],        // what the pins show now, in API order
  total: 0,
  places: [],          // 地点 candidates
  loads: 0,
};
const markers = new Map();  // key -> circle marker

function segmented(id, onChange) {
  const box = $(id);
  box.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b || b.disabled) return;
    for (const o of box.querySelectorAll('button')) o.classList.toggle('on', o === b);
    onChange(b.dataset.value);
  });
}

function setBusy(busy) { document.body.dataset.busy = busy ? '1' : '0'; }

if (!window.L || !config.leaflet) {
  $('missing').hidden = false;
  setBusy(false);
  throw new Error('Leaflet is missing: install libjs-leaflet');
}

// --- The map and the view in the URL (#zoom/lat/lon, as openstreetmap.org writes it) -------

function viewFromHash() {
  const m = /^#(\d{1,2})\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(location.hash);
  if (!m) return null;
  const z = +m[1], lat = +m[2], lon = +m[3];
  if (z > 19 || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { z, lat, lon };
}

const start = viewFromHash() || { z: 15, lat: 35.681236, lon: 139.767125 };  // 東京駅
const map = L.map('map', { zoomControl: true, preferCanvas: false }).setView([start.lat, start.lon], start.z);
if (config.tiles) {
  L.tileLayer(config.tiles.url, { maxZoom: 19, attribution: config.tiles.attribution }).addTo(map);
}
map.attributionControl.addAttribution('出典：国土数値情報（鉄道データ・行政区域データ）（国土交通省）を加工して作成');

fetch('/prefectures.geojson').then((r) => r.ok ? r.json() : null).then((g) => {
  if (!g) return;
  const outlines = L.geoJSON(g, {
    interactive: false,
    style: { color: '#667', weight: 1, fill: !config.tiles, fillColor: '#f7f5ee', fillOpacity: 1, opacity: config.tiles ? 0.5 : 0.9 },
  }).addTo(map);
  outlines.bringToBack();
}).catch(() => {});

function writeHash() {
  const c = map.getCenter();
  const hash = `#${map.getZoom()}/${c.lat.toFixed(5)}/${c.lng.toFixed(5)}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

window.addEventListener('hashchange', () => {
  const v = viewFromHash();
  if (v) map.setView([v.lat, v.lon], v.z);
});

// --- Pins ------------------------------------------------------------------------------------

const pinLayer = L.featureGroup().addTo(map);

function pinStyle(visited) {
  return visited
    ? { radius: 7, color: '#0b5d22', weight: 1.5, fillColor: '#1a9b3c', fillOpacity: 0.95 }
    : { radius: 7, color: '#8a1010', weight: 1.5, fillColor: '#dd3333', fillOpacity: 0.95 };
}

function label(p) {
  return `${p.name}（${p.operator || '-'}${p.class === 'shinkansen' ? '・新幹線' : ''}）`;
}

function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

function showPins(features) {
  pinLayer.clearLayers();
  markers.clear();
  for (const f of features) {
    const p = f.properties;
    const [lon, lat] = f.geometry.coordinates;
    const m = L.circleMarker([lat, lon], { ...pinStyle(p.visited), className: 'pin' });
    m.feature = f;
    m.bindPopup(() => {
      const div = document.createElement('div');
      div.innerHTML = `<b>${escapeHTML(p.name)}</b><br>${escapeHTML(p.operator || '-')}${p.class === 'shinkansen' ? '（新幹線）' : ''}<br>`;
      const b = document.createElement('button');
      b.textContent = '駅情報 ›';
      b.className = 'open-station';
      b.onclick = () => openStation(p.key);
      div.appendChild(b);
      return div;
    });
    m.addTo(pinLayer);
    const el = m.getElement();
    if (el) {
      el.dataset.key = p.key;
      el.dataset.name = p.name;
      el.classList.add(p.visited ? 'pin-visited' : 'pin-unvisited');
    }
    markers.set(p.key, m);
  }
}

function setPinVisited(key, visited, completed) {
  const m = markers.get(key);
  if (!m) return;
  m.feature.properties.visited = visited;
  m.feature.properties.completed = completed;
  m.setStyle(pinStyle(visited));
  const el = m.getElement();
  if (el) {
    el.classList.toggle('pin-visited', visited);
    el.classList.toggle('pin-unvisited', !visited);
  }
  if (state.mode === 'list') renderList();
}

function notice(text) {
  $('notice').textContent = text || '';
  $('notice').hidden = !text;
}

let pending = null;
async function getJSON(url, signal) {
  const r = await fetch(url, { signal, headers: { Accept: 'application/json' } });
  const body = await r.json().catch(() => ({ error: 'bad_answer', message: `HTTP ${r.status}` }));
  if (!r.ok) throw Object.assign(new Error(body.message || `HTTP ${r.status}`), { status: r.status, body });
  return body;
}

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
    let fc;
    if (state.search) {
      const q = new URLSearchParams({ q: state.search.q, by: state.search.by, match: state.search.match,
        limit: String(config.pins), filter: state.filter });
      const c = map.getCenter();
      q.set('near', `${c.lat.toFixed(6)},${c.lng.toFixed(6)}`);
      state.lastURL = `/api/search?${q}`;
      fc = await getJSON(state.lastURL, ctl.signal);
      fc.total = fc.features.length;
      notice(fc.features.length ? '' : `「${state.search.q}」に一致する駅はありません`);
    } else {
      const q = new URLSearchParams({ bbox: boundsParam(), limit: String(config.pins), filter: state.filter });
      state.lastURL = `/api/bbox?${q}`;
      fc = await getJSON(state.lastURL, ctl.signal);
      const more = fc.total - fc.features.length;
      notice(more > 0 ? `ほかに ${more} 駅あります：ズームしてください (${more} more here: zoom in)` : '');
    }
    if (ctl.signal.aborted) return;
    state.features = fc.features;
    state.total = fc.total;
    showPins(fc.features);
    state.loads += 1;
    if (state.mode === 'list') await renderList();
  } catch (e) {
    if (e.name === 'AbortError') return;
    notice(`読み込めません: ${e.message}`);
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

map.on('moveend', () => { writeHash(); if (!state.search) scheduleReload(); else if (state.mode === 'list') renderList(); });

// --- 一覧: the stations in view (or the search's matches), nearest the map centre first ------

function distanceText(m) { return m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(2)} km`; }

let listPending = null;
async function renderList() {
  const rows = $('list-rows');
  if (state.places.length) {
    rows.innerHTML = '';
    $('list-title').textContent = `地点「${state.placeQuery}」`;
    for (const f of state.places) {
      const li = document.createElement('li');
      li.className = 'place-row';
      li.dataset.title = f.properties.title;
      li.innerHTML = `<span class="name">${escapeHTML(f.properties.title)}</span><span class="sub">${escapeHTML(f.properties.provider)}</span>`;
      li.onclick = () => goToPlace(f);
      rows.appendChild(li);
    }
    return;
  }
  let features, title;
  if (state.search) {
    // The matches, nearest the map centre first (the search asked with near=centre).
    features = state.features;
    title = `検索「${state.search.q}」: ${features.length} 駅`;
  } else {
    // The stations in view, nearest the map centre first: /api/nearest from the centre, kept
    // while inside the view.
    if (listPending) listPending.abort();
    const ctl = new AbortController();
    listPending = ctl;
    setBusy(true);
    try {
      const c = map.getCenter(), b = map.getBounds();
      const q = new URLSearchParams({ lat: c.lat.toFixed(7), lon: c.lng.toFixed(7), k: String(config.pins), filter: state.filter });
      state.listURL = `/api/nearest?${q}`;
      const fc = await getJSON(state.listURL, ctl.signal);
      features = fc.features.filter((f) => b.contains(L.latLng(f.geometry.coordinates[1], f.geometry.coordinates[0])));
    } catch (e) {
      if (e.name !== 'AbortError') notice(`一覧を読めません: ${e.message}`);
      return;
    } finally {
      if (listPending === ctl) { listPending = null; setBusy(!!pending); }
    }
    title = `一覧: ${features.length} 駅（地図の中心から近い順）`;
  }
  rows.innerHTML = '';
  $('list-title').textContent = title;
  for (const f of features) {
    const p = f.properties;
    const li = document.createElement('li');
    li.dataset.key = p.key;
    li.className = p.visited ? 'visited' : 'unvisited';
    const d = p.distance_m !== undefined ? p.distance_m : map.getCenter().distanceTo([f.geometry.coordinates[1], f.geometry.coordinates[0]]);
    li.innerHTML = `<span class="dot"></span><span class="name">${escapeHTML(p.name)}</span>` +
      `<span class="sub">${escapeHTML(p.operator || '-')}${p.class === 'shinkansen' ? '・新幹線' : ''}　${escapeHTML(p.lines.join('、'))}</span>` +
      `<span class="dist">${distanceText(d)}</span>`;
    li.onclick = () => openStation(p.key);
    rows.appendChild(li);
  }
}

segmented('mode', (v) => {
  state.mode = v;
  $('list').hidden = v !== 'list';
  if (v === 'list') renderList();
});

segmented('filter', (v) => { state.filter = v; reload(); });

// --- Search: 駅名 / 読み / 路線 filter the pins; 地点 geocodes and only moves the map -----------

segmented('scope', (v) => {
  state.scope = v;
  for (const b of $('match').querySelectorAll('button')) b.disabled = v === 'place';
});
segmented('match', (v) => { state.match = v; });

$('search').addEventListener('submit', async (e) => {
  e.preventDefault();
  const q = $('q').value.trim();
  if (!q) return clearSearch();
  if (state.scope === 'place') return searchPlace(q);
  state.places = [];
  state.search = { q, by: state.scope, match: state.match };
  await reload();
  // Matches out of view: show them.
  if (state.features.length && !state.features.some((f) => map.getBounds().contains(L.latLng(f.geometry.coordinates[1], f.geometry.coordinates[0])))) {
    map.fitBounds(pinLayer.getBounds(), { maxZoom: 15, padding: [30, 30] });
  }
});

function clearSearch() {
  $('q').value = '';
  state.places = [];
  placeLayer.clearLayers();
  if (state.search) { state.search = null; reload(); } else if (state.mode === 'list') renderList();
}
$('clear').addEventListener('click', clearSearch);

async function searchPlace(q) {
  setBusy(true);
  try {
    const fc = await getJSON(`/api/geocode?${new URLSearchParams({ q })}`);
    state.places = fc.features;
    state.placeQuery = q;
    notice('');
    if (fc.features.length === 1) { goToPlace(fc.features[0]); return; }
    state.mode = 'list';
    for (const b of $('mode').querySelectorAll('button')) b.classList.toggle('on', b.dataset.value === 'list');
    $('list').hidden = false;
    renderList();
  } catch (e) {
    notice(e.status === 404 ? `「${q}」は見つかりません` : `地点を検索できません: ${e.message}`);
  } finally {
    setBusy(false);
  }
}

const placeLayer = L.layerGroup().addTo(map);

function goToPlace(f) {
  const [lon, lat] = f.geometry.coordinates;
  state.places = [];
  placeLayer.clearLayers();
  L.circleMarker([lat, lon], { radius: 9, color: '#1f4fa8', weight: 3, fill: false, interactive: false, className: 'place' })
    .bindTooltip(f.properties.title, { permanent: true, direction: 'right' }).addTo(placeLayer);
  map.setView([lat, lon], Math.max(map.getZoom(), 15));
  if (state.mode === 'list') renderList();
}

// --- Current position ------------------------------------------------------------------------

if (navigator.geolocation) {
  $('locate').addEventListener('click', () => {
    navigator.geolocation.getCurrentPosition(
      (p) => map.setView([p.coords.latitude, p.coords.longitude], Math.max(map.getZoom(), 15)),
      (err) => notice(`現在位置を取得できません: ${err.message}`),
      { enableHighAccuracy: true, timeout: 10000 });
  });
} else {
  $('locate').hidden = true;
}

// --- The station screen ----------------------------------------------------------------------

let current = null;

async function openStation(key) {
  map.closePopup();
  setBusy(true);
  try {
    const f = await getJSON(`/api/station?${new URLSearchParams({ key })}`);
    current = f;
    const p = f.properties;
    $('st-name').textContent = p.name + (p.open ? '' : '（廃止）');
    $('st-reading').textContent = p.reading || '';
    $('st-operator').textContent = p.operator || '-';
    $('st-class').textContent = p.class === 'shinkansen' ? '新幹線' : '在来線';
    $('st-lines').textContent = p.lines.join('、') || '-';
    $('st-prefecture').textContent = p.prefecture || '-';
    $('st-completed').textContent = p.visited ? `済（${p.completed || '日付不明'}）` : 'まだ';
    $('st-key').textContent = p.key;
    const ul = $('st-visits');
    ul.innerHTML = '';
    for (const v of p.visits) {
      const li = document.createElement('li');
      li.textContent = `${v.date || '日付不明'}　${v.kind || ''}　${v.note || ''}`;
      if (!config.readOnly) {
        const del = document.createElement('button');
        del.textContent = '削除';
        del.className = 'delete-visit';
        del.onclick = () => removeVisit(v.id);
        li.appendChild(del);
      }
      ul.appendChild(li);
    }
    $('record').hidden = config.readOnly;
    $('record-error').hidden = true;
    $('station').hidden = false;
    $('station').dataset.key = p.key;
    document.dispatchEvent(new CustomEvent('eki:station', { detail: f }));  // lines.js: the line_stats links
  } catch (e) {
    notice(`駅情報を読めません: ${e.message}`);
  } finally {
    setBusy(false);
  }
}

$('station-close').addEventListener('click', () => { $('station').hidden = true; current = null; });

function today() {
  const d = new Date();
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

async function send(method, url, body) {
  const r = await fetch(url, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', 'X-Eki-Token': token },
  });
  const answer = await r.json().catch(() => ({ message: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(answer.message || `HTTP ${r.status}`);
  return answer;
}

// Sends a visit change for the open station (`request` gets its key): the pin takes the answer's
// state at once, `after` sees the answer, and the station screen is read again; an error is shown
// under the buttons.
async function changeVisit(request, after) {
  if (!current) return;
  const key = current.properties.key;
  setBusy(true);
  try {
    const a = await request(key);
    setPinVisited(key, a.visited, a.completed);
    if (after) after(a);
    await openStation(key);
  } catch (e) {
    $('record-error').textContent = e.message;
    $('record-error').hidden = false;
  } finally {
    setBusy(false);
  }
}

function record(date) {
  const kind = $('visit-kind').value || null;
  return changeVisit((key) => send('POST', '/api/visits', { key, date, kind, note: null }),
                     (a) => { if (state.filter === 'unvisited' && a.visited) reload(); });
}

function removeVisit(id) {
  return changeVisit(() => send('DELETE', `/api/visits/${id}`));
}

$('today').addEventListener('click', () => record(today()));
$('record').addEventListener('submit', (e) => { e.preventDefault(); record($('visit-date').value.trim() || null); });

// --- For the browser tests -------------------------------------------------------------------

window.eki = {
  map, state, markers,
  pins: () => [...markers.values()].map((m) => ({ key: m.feature.properties.key, name: m.feature.properties.name,
    visited: m.feature.properties.visited })),
  openStation,
};

writeHash();
reload();
