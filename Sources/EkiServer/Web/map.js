// The map itself: page settings, the view in the URL (#zoom/lat/lon, as openstreetmap.org writes
// it), the panes, and the map layers behind 地図 / 空撮 / 複合 — each tile layer counts its
// tileload and tileerror; a layer that is not configured or whose tiles fail says why on its
// button, and a failing 地図 falls back to the offline basemap (basemap.js) once, with a notice.
'use strict';

const config = JSON.parse(document.querySelector('meta[name="eki-config"]').content);
const clusterBelowZoom = Number.isInteger(config.clusterBelowZoom) ? config.clusterBelowZoom : 12;
const $ = (id) => document.getElementById(id);

// State read by the page and by the browser tests (window.eki.state).
const state = {
  filter: 'all', mode: 'map', layer: 'map', scope: 'name', match: 'prefix',
  search: null,        // {q, by, match} while a database search filters the pins
  features: [],        // what the pins show now, in API order
  clusters: [],        // what the cluster circles show now
  total: 0,
  places: [],          // 地点 candidates
  listPlace: null,     // {name, features} while 一覧 shows one stack
  loads: 0,
  firstPaintMs: null,  // performance.now() when the first answer was drawn
};

function setBusy(busy) { document.body.dataset.busy = busy ? '1' : '0'; }

function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

// Notices: one line per topic over the map (`html` from tx(), '' removes it); `ms` makes a line
// go away by itself.
const noticeTimers = {};
function notice(topic, html, ms) {
  const text = html;
  const box = $('notice');
  let p = box.querySelector(`p[data-topic="${topic}"]`);
  if (text && !p) { p = document.createElement('p'); p.dataset.topic = topic; box.appendChild(p); }
  if (p) { if (text) p.innerHTML = text; else p.remove(); }
  clearTimeout(noticeTimers[topic]);
  if (text && ms) noticeTimers[topic] = setTimeout(() => notice(topic, ''), ms);
  box.hidden = !box.querySelector('p');
}

// Every /api/ read: the server's answer, or the station snapshot's when offline (offline.js).
function getJSON(url, signal) { return stations.get(url, signal); }

if (!window.L || !config.leaflet) {
  $('missing').hidden = false;
  $('missing').textContent = t('missing');
  setBusy(false);
  throw new Error('Leaflet is missing: install libjs-leaflet');
}

function viewFromHash() {
  const m = /^#(\d{1,2})\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(location.hash);
  if (!m) return null;
  const z = +m[1], lat = +m[2], lon = +m[3];
  if (z > 19 || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { z, lat, lon };
}

const start = viewFromHash() || { z: 15, lat: 35.681236, lon: 139.767125 };  // 東京駅
const map = L.map('map', { zoomControl: false, preferCanvas: false }).setView([start.lat, start.lon], start.z);
L.control.zoom({ zoomInTitle: t('zoomIn'), zoomOutTitle: t('zoomOut') }).addTo(map);
map.attributionControl.setPrefix('<a href="https://leafletjs.com" translate="no">Leaflet</a>');
map.attributionControl.addAttribution(t('source'));

// Panes, bottom to top: tiles 200, prefectures 210, linework 260, a chosen line 380 (路線),
// station names 390, pins 400 (overlayPane), stacks and clusters 600 (markerPane).
for (const [name, z] of [['ekiPrefectures', 210], ['ekiLinework', 260], ['ekiLine', 380], ['ekiNames', 390]]) {
  map.createPane(name).style.zIndex = String(z);
}
map.getPane('ekiNames').style.pointerEvents = 'none';

function writeHash() {
  const c = map.getCenter();
  const hash = `#${map.getZoom()}/${c.lat.toFixed(5)}/${c.lng.toFixed(5)}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

window.addEventListener('hashchange', () => {
  const v = viewFromHash();
  if (v) map.setView([v.lat, v.lon], v.z);
});

// --- 地図 / 空撮 / 複合 ------------------------------------------------------------------------

// One tile source: its Leaflet layer (nil when not configured) and what its tiles did.
function tileSource(name, source, maxNativeZoom) {
  const s = { name, configured: !!source, failed: false, loads: 0, errors: 0, layer: null };
  if (!source) return s;
  s.layer = L.tileLayer(source.url, { maxZoom: 19, maxNativeZoom, attribution: source.attribution });
  s.layer.on('tileload', () => { s.loads += 1; });
  s.layer.on('tileerror', () => {
    s.errors += 1;
    // No tile came and three failed: the source is unreachable, say so once and stop asking it.
    if (!s.failed && s.loads === 0 && s.errors >= 3) { s.failed = true; tilesFailed(s); }
  });
  return s;
}

const streets = tileSource('map', config.tiles, 19);
const aerial = tileSource('aerial', config.aerial, 18);

function tilesFailed(s) {
  notice(`tiles-${s.name}`, tx(s.name === 'map' ? 'tilesFailed' : 'aerialFailed'), 10000);
  if (s.name === 'aerial' && state.layer !== 'map') state.layer = 'map';
  applyLayer();
}

// Whether the offline basemap stands in for 地図's tiles.
function offline() { return !streets.configured || streets.failed; }

// Shows the layers of state.layer and marks each button with its availability.
function applyLayer() {
  const aerialOK = aerial.configured && !aerial.failed;
  if (!aerialOK && state.layer !== 'map') state.layer = 'map';
  const wantStreets = state.layer === 'map' && !offline();
  const wantAerial = state.layer !== 'map' && aerialOK;
  for (const [s, want] of [[streets, wantStreets], [aerial, wantAerial]]) {
    if (!s.layer) continue;
    if (want && !map.hasLayer(s.layer)) s.layer.addTo(map);
    if (!want && map.hasLayer(s.layer)) map.removeLayer(s.layer);
  }
  const overlay = state.layer === 'hybrid' || (state.layer === 'map' && offline());
  document.body.dataset.layer = state.layer;
  document.body.dataset.overlay = overlay ? '1' : '0';
  document.body.dataset.offline = offline() ? '1' : '0';
  const button = (v) => $('mode').querySelector(`button[data-value="${v}"]`);
  const mapB = button('map'), aerialB = button('aerial'), hybridB = button('hybrid');
  mapB.classList.toggle('degraded', offline());
  mapB.title = !streets.configured ? t('mapOffline') : streets.failed ? t('mapFailing') : '';
  aerialB.disabled = hybridB.disabled = !aerialOK;
  aerialB.title = !aerial.configured ? t('aerialNone') : aerial.failed ? t('aerialFailing') : '';
  hybridB.title = !aerial.configured ? t('hybridNone') : aerial.failed ? t('aerialFailing') : '';
  if (state.mode !== 'list') selectSegment('mode', state.layer);
  basemapShow(overlay, state.layer !== 'map');
}

function selectSegment(id, value) {
  for (const b of $(id).querySelectorAll('button')) b.classList.toggle('on', b.dataset.value === value);
}

// A segmented control: one button on; onChange(value) after a click on an enabled button.
function segmented(id, onChange) {
  const box = $(id);
  box.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b || b.disabled) return;
    selectSegment(id, b.dataset.value);
    onChange(b.dataset.value);
  });
}

// The bars lie over the map: a popup pans clear of them and of the open panels.
const adjustPan = L.Popup.prototype._adjustPan;
L.Popup.include({
  _adjustPan() {
    const px = (v) => parseFloat(getComputedStyle(document.documentElement).getPropertyValue(v)) || 0;
    this.options.autoPanPaddingTopLeft = L.point(px('--pl') + 10, px('--top') + 10);
    this.options.autoPanPaddingBottomRight = L.point(px('--pr') + 10, px('--bottom') + px('--sheet') + 24);
    return adjustPan.apply(this, arguments);
  },
});
