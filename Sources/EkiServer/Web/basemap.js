// EkiKit's own basemap, for `--tiles none`, for tiles that fail, and as 複合's overlay on the
// aerial photos: prefecture outlines (prefectures.geojson, 国土数値情報 行政区域データ), every open
// line as a stroke through its stations in line order (/api/linework, fetched once, drawn on a
// canvas), and station names from z13.
'use strict';

const namesFromZoom = 13;
const basemap = { overlay: false, aerial: false, prefectures: null, linework: null, lineworkLoaded: false, names: 0 };
const baseRenderer = L.canvas({ pane: 'ekiPrefectures' });
const lineRenderer = L.canvas({ pane: 'ekiLinework', tolerance: 0 });
const nameLayer = L.layerGroup();
nameLayer.addTo(map);

function prefectureStyle() {
  const filled = basemap.overlay && !basemap.aerial;
  return {
    color: basemap.aerial ? '#fff' : '#667', weight: 1, fill: filled, fillColor: '#f7f5ee', fillOpacity: 1,
    opacity: filled ? 0.9 : basemap.aerial ? 0.6 : 0.5,
  };
}

function lineStyle(f) {
  const p = f.properties;
  const shinkansen = p.class === 'shinkansen';
  return {
    color: p.color || (shinkansen ? '#1f4fa8' : '#6b6b6b'), weight: (shinkansen ? 3.2 : 1.8) + (basemap.aerial ? 0.8 : 0),
    opacity: 0.85, lineCap: 'round', lineJoin: 'round',
  };
}

fetch('/prefectures.geojson').then((r) => (r.ok ? r.json() : null)).then((g) => {
  if (!g) return;
  basemap.prefectures = L.geoJSON(g, { interactive: false, renderer: baseRenderer, style: prefectureStyle }).addTo(map);
}).catch(() => {});

function loadLinework() {
  // Asked after the first view is drawn, so that the clusters or pins come first.
  if (state.firstPaintMs === null) { basemap.deferred = true; return; }
  if (basemap.lineworkLoaded) return;
  basemap.lineworkLoaded = true;
  getJSON('/api/linework').then((g) => {
    basemap.linework = L.geoJSON(g, { interactive: false, renderer: lineRenderer, style: lineStyle });
    basemap.lines = g.features.length;
    if (basemap.overlay) basemap.linework.addTo(map);
  }).catch((e) => { basemap.lineworkLoaded = false; basemap.lineworkError = e.message; });
}

// overlay: draw the linework and the names; aerial: under them lie aerial photos.
function basemapShow(overlay, aerialOn) {
  basemap.overlay = overlay; basemap.aerial = aerialOn;
  if (basemap.prefectures) basemap.prefectures.setStyle(prefectureStyle);
  if (overlay) loadLinework();
  if (basemap.linework) {
    basemap.linework.setStyle(lineStyle);
    if (overlay && !map.hasLayer(basemap.linework)) basemap.linework.addTo(map);
    if (!overlay && map.hasLayer(basemap.linework)) map.removeLayer(basemap.linework);
  }
  basemapNames(state.features);
}

// Station names for the pins in view: one label per place (a stack's entries share one), and one
// per name within ~48 px (東京's entries of several lines).
const names = new KeyedLayer(nameLayer, (item) => L.marker(item.latlng, {
  pane: 'ekiNames', interactive: false, keyboard: false,
  icon: L.divIcon({ className: 'station-name', html: `<span translate="no">${escapeHTML(item.name)}</span>`, iconSize: null, iconAnchor: [-9, 9] }),
}), () => {});

function basemapNames(features) {
  const items = new Map();
  if (basemap.overlay && map.getZoom() >= namesFromZoom) {
    const kept = [];
    for (const g of placeGroups(features)) {
      const n = g.features.length;
      const lat = g.features.reduce((a, f) => a + f.geometry.coordinates[1], 0) / n;
      const lon = g.features.reduce((a, f) => a + f.geometry.coordinates[0], 0) / n;
      const name = g.features[0].properties.name;
      const pt = map.latLngToLayerPoint([lat, lon]);
      if (kept.some((k) => k.name === name && k.pt.distanceTo(pt) < 48)) continue;
      kept.push({ name, pt });
      items.set(`${name}@${lon},${lat}`, { name, latlng: [lat, lon], sig: 'n' });
    }
  }
  names.sync(items);
  basemap.names = names.markers.size;
}

map.on('zoomend', () => basemapNames(state.features));
