// Pins kept by key: a view change adds and removes only the difference, so a marker whose
// callout is open survives the pan Leaflet makes to fit it. Entries that share a place (the same
// coordinates, or one name within 200 m: 小田原's five) are one stack with a count badge; a tap
// opens 一覧 for them.
// red = not yet got on or off there, green = done.
'use strict';

// Markers by key on one layer. sync(items) takes a Map key -> item with `sig` (a marker whose
// item keeps its sig is kept and update()d, otherwise made anew with create()); markers with an
// open popup stay until it closes. `created` counts every marker made.
class KeyedLayer {
  constructor(layer, create, update) {
    this.layer = layer; this.create = create; this.update = update;
    this.markers = new Map(); this.created = 0; this.nextId = 1;
  }

  sync(items) {
    for (const [key, m] of this.markers) {
      const item = items.get(key);
      if (item && item.sig === m.sig) continue;
      if (!item && m.isPopupOpen && m.isPopupOpen()) continue;
      this.layer.removeLayer(m);
      this.markers.delete(key);
    }
    for (const [key, item] of items) {
      const old = this.markers.get(key);
      if (old) { this.update(old, item); continue; }
      const m = this.create(item);
      m.sig = item.sig; m.ekiId = this.nextId++; m.ekiKey = key;
      this.created += 1;
      this.markers.set(key, m);
      m.addTo(this.layer);
      this.update(m, item, true);
    }
  }

  // key|sig -> marker id: the same marker for the same content keeps its id.
  ids() { return Object.fromEntries([...this.markers].map(([k, m]) => [`${k}|${m.sig}`, m.ekiId])); }
}

// Green: visited; red: not yet; grey: suspended (休止: no trains, not counted under 降りつぶし's
// rules), its outline green once visited.
function pinStyle(visited, status) {
  if (status === 'suspended') {
    return { radius: 7, color: visited ? '#0b5d22' : '#5f6368', weight: visited ? 2.5 : 1.5, fillColor: '#9aa0a6', fillOpacity: 0.95 };
  }
  return visited
    ? { radius: 7, color: '#0b5d22', weight: 1.5, fillColor: '#1a9b3c', fillOpacity: 0.95 }
    : { radius: 7, color: '#8a1010', weight: 1.5, fillColor: '#dd3333', fillOpacity: 0.95 };
}

function operatorName(p) { return p.operator_short || p.operator || '-'; }

function popupContent(p) {
  const div = document.createElement('div');
  div.innerHTML = `<b translate="no">${escapeHTML(p.name)}</b><br><span translate="no">${escapeHTML(operatorName(p))}</span>` +
    `${p.class === 'shinkansen' ? escapeHTML(t('withShinkansen')) : ''}<br>`;
  const b = document.createElement('button');
  b.textContent = t('openStation');
  b.className = 'open-station';
  b.onclick = () => openStation(p.key, { reveal: true });
  div.appendChild(b);
  return div;
}

const pinLayer = L.featureGroup().addTo(map);

// A single entry: an SVG circle (path.pin[data-key]). A stack: a div with a badge
// (div.stack[data-keys], the keys separated by spaces).
const pins = new KeyedLayer(pinLayer, (item) => {
  const n = item.features.length;
  const lat = item.features.reduce((a, f) => a + f.geometry.coordinates[1], 0) / n;
  const lon = item.features.reduce((a, f) => a + f.geometry.coordinates[0], 0) / n;
  if (n === 1) {
    const m = L.circleMarker([lat, lon], { ...pinStyle(false), className: 'pin', bubblingMouseEvents: false });
    m.bindPopup(() => popupContent(m.feature.properties));
    return m;
  }
  const m = L.marker([lat, lon], { icon: stackIcon(item.features), keyboard: false, riseOnHover: true });
  m.on('click', () => openStackList(m.features, m.getLatLng()));
  return m;
}, (m, item, fresh) => {
  m.features = item.features;
  m.feature = item.features[0];
  if (item.features.length === 1) {
    const p = m.feature.properties;
    if (fresh || m.visited !== p.visited) {
      m.visited = p.visited;
      m.setStyle(pinStyle(p.visited, p.status));
      const el = m.getElement();
      if (el) {
        el.dataset.key = p.key;
        el.dataset.name = p.name;
        el.classList.toggle('pin-visited', !!p.visited);
        el.classList.toggle('pin-unvisited', !p.visited);
        el.classList.toggle('pin-suspended', p.status === 'suspended');
      }
    }
  } else {
    const v = item.features.map((f) => (f.properties.visited ? '1' : '0')).join('');
    if (!fresh && m.visitedSig !== v) m.setIcon(stackIcon(item.features));
    m.visitedSig = v;
    const el = m.getElement();
    if (el) {
      el.title = t('stackBadge', item.features.length);
      el.dataset.keys = item.features.map((f) => f.properties.key).join(' ');
      el.dataset.name = m.feature.properties.name;
      el.dataset.visited = String(item.features.filter((f) => f.properties.visited).length);
      el.dataset.suspended = String(item.features.filter((f) => f.properties.status === 'suspended').length);
    }
  }
});

// A stack's dot: the share of visited entries green, of suspended ones not yet visited grey, the rest red.
function stackIcon(features) {
  const done = features.filter((f) => f.properties.visited).length;
  const idle = features.filter((f) => !f.properties.visited && f.properties.status === 'suspended').length;
  const share = Math.round((360 * done) / features.length), grey = Math.round((360 * (done + idle)) / features.length);
  const html = `<span class="stack-dot" style="background: conic-gradient(#1a9b3c 0 ${share}deg, #9aa0a6 ${share}deg ${grey}deg, ` +
    `#dd3333 ${grey}deg 360deg)"></span>` +
    `<span class="badge">${features.length}</span>`;
  return L.divIcon({ className: 'stack', html, iconSize: [18, 18], iconAnchor: [9, 9] });
}

// One place: entries at the same coordinates, or of the same name within stackMetres of the
// place's first entry (小田原's five operators, 東京's JR lines). API order is kept; a group lies
// at the mean of its entries.
const stackMetres = 200;
function placeGroups(features) {
  const groups = [];
  const byName = new Map(), byPoint = new Map();
  for (const f of features) {
    const [lon, lat] = f.geometry.coordinates;
    const point = `${lon},${lat}`, name = f.properties.name;
    let g = byPoint.get(point) ||
      (byName.get(name) || []).find((c) => L.latLng(lat, lon).distanceTo(c.at) <= stackMetres);
    if (!g) {
      g = { at: L.latLng(lat, lon), features: [] };
      groups.push(g);
      byName.set(name, [...(byName.get(name) || []), g]);
    }
    byPoint.set(point, g);
    g.features.push(f);
  }
  return groups;
}

function showPins(features) {
  const items = new Map();
  for (const g of placeGroups(features)) {
    if (g.features.length === 1) {
      items.set(g.features[0].properties.key, { features: g.features, sig: 'pin' });
    } else {
      const keys = g.features.map((f) => f.properties.key).sort().join(' ');
      items.set('@' + keys, { features: g.features, sig: 'stack' });
    }
  }
  pins.sync(items);
  basemapNames(features);
}

// After a visit change: the feature takes the answer's state and its marker (pin or stack) its colour.
function setPinVisited(key, visited, completed) {
  for (const f of state.features) {
    if (f.properties.key !== key) continue;
    f.properties.visited = visited;
    f.properties.completed = completed;
  }
  for (const m of pins.markers.values()) {
    if (m.features.some((f) => f.properties.key === key)) pins.update(m, { features: m.features });
  }
  if (state.mode === 'list') renderList();
}
