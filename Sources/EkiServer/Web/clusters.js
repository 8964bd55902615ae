// Clusters while zoom < config.clusterBelowZoom: the server's /api/clusters cells (one Web
// Mercator tile at zoom + 2, split by prefecture) as circles labelled `visited/total`, coloured by
// completion (red none … green all); a tap zooms to the cluster's bbox. Kept by id like the pins;
// where labels would collide the smaller clusters become dots.
'use strict';

const clusterLayer = L.featureGroup().addTo(map);

// Completion → colour: red (0) through amber to green (1).
function completionColour(visited, total) {
  const r = total ? visited / total : 0;
  if (r >= 1) return '#1a9b3c';
  return `hsl(${Math.round(8 + 100 * Math.sqrt(r))}, 72%, 44%)`;
}

function clusterIcon(c) {
  const text = `${c.visited}/${c.total}`;
  const size = Math.max(26, 10 + 6.5 * text.length);
  return L.divIcon({
    className: 'cluster', iconSize: [size, 20], iconAnchor: [size / 2, 10],
    html: `<span style="background:${completionColour(c.visited, c.total)}">${text}</span>`,
  });
}

const clusters = new KeyedLayer(clusterLayer, (c) => {
  const m = L.marker([c.lat, c.lon], { icon: clusterIcon(c), keyboard: false, zIndexOffset: c.total });  // big ones on top
  m.on('click', () => {
    const m2 = m.cluster;
    const [w, s, e, n] = m2.bbox;
    if (w === e && s === n) map.setView([s, w], Math.max(clusterBelowZoom, map.getZoom() + 2));
    else map.fitBounds([[s, w], [n, e]], { padding: [40, 40], maxZoom: Math.max(clusterBelowZoom, map.getZoom() + 1) });
  });
  return m;
}, (m, c, fresh) => {
  if (!fresh && (m.cluster.visited !== c.visited || m.cluster.total !== c.total)) m.setIcon(clusterIcon(c));
  m.cluster = c;
  const el = m.getElement();
  if (el) {
    el.dataset.id = c.id;
    el.translate = false;  // its title names the prefecture
    el.dataset.prefecture = c.prefecture || '';
    el.title = t('clusterTitle', c.prefecture || '', c.visited, c.total);
  }
});

function showClusters(list) {
  state.clusters = list;
  clusters.sync(new Map(list.map((c) => [c.id, { ...c, sig: 'c' }])));
  declutterClusters();
}

// Biggest first, a cluster whose label would cover one already labelled is drawn as a small dot
// (class compact; its label stays in its title).
function declutterClusters() {
  const placed = [];
  const sorted = [...clusters.markers.values()].sort((a, b) => b.cluster.total - a.cluster.total);
  for (const m of sorted) {
    const el = m.getElement();
    if (!el) continue;
    const p = map.latLngToContainerPoint(m.getLatLng());
    const w = el.offsetWidth / 2, h = 10;
    const r = [p.x - w, p.y - h, p.x + w, p.y + h];
    const hit = placed.some((q) => r[0] < q[2] && q[0] < r[2] && r[1] < q[3] && q[1] < r[3]);
    el.classList.toggle('compact', hit);
    if (!hit) placed.push(r);
  }
}

// Whether this view asks for clusters rather than pins.
function clusterView() { return !state.search && !state.clustersMissing && map.getZoom() < clusterBelowZoom; }
