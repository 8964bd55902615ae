// The search bar: 駅名 / 読み / 路線 (前方一致 / 部分一致) filter the pins with /api/search; 地点
// geocodes with /api/geocode and only moves the map (no station data changes). The scope rows
// show while the search field is in use, as the app's scope bar does.
'use strict';

const placeLayer = L.layerGroup().addTo(map);

function setSearching(on) {
  $('top').classList.toggle('searching', on);
}

// Focus inside the form shows the scope rows; a press on them keeps the focus in the field.
$('search').addEventListener('focusin', () => setSearching(true));
$('search').addEventListener('focusout', (e) => {
  if (!e.relatedTarget || !$('search').contains(e.relatedTarget)) setSearching(false);
});
$('search').querySelector('.scopes').addEventListener('mousedown', (e) => e.preventDefault());

segmented('scope', (v) => {
  state.scope = v;
  for (const b of $('match').querySelectorAll('button')) b.disabled = v === 'place';
});
segmented('match', (v) => { state.match = v; });

$('search').addEventListener('submit', async (e) => {
  e.preventDefault();
  const q = $('q').value.trim();
  $('q').blur();
  setSearching(false);
  if (!q) return clearSearch();
  if (state.scope === 'place') return searchPlace(q);
  state.places = [];
  state.search = { q, by: state.scope, match: state.match };
  await reload();
  // Matches out of view: show them.
  const b = map.getBounds();
  if (state.features.length && !state.features.some((f) => b.contains(L.latLng(f.geometry.coordinates[1], f.geometry.coordinates[0])))) {
    map.fitBounds(pinLayer.getBounds(), { maxZoom: 15, padding: [30, 30] });
  }
});

function clearSearch() {
  $('q').value = '';
  state.places = [];
  placeLayer.clearLayers();
  notice('search', '');
  if (state.search) { state.search = null; reload(); } else if (state.mode === 'list') renderList();
}
$('clear').addEventListener('click', clearSearch);

async function searchPlace(q) {
  setBusy(true);
  notice('search', '');
  try {
    const fc = await getJSON(`/api/geocode?${new URLSearchParams({ q })}`);
    state.places = fc.features;
    state.placeQuery = q;
    if (fc.features.length === 1) { goToPlace(fc.features[0]); return; }
    openList();
  } catch (e) {
    // 404: the services answered and found nothing; 502 or no answer at all: unreachable.
    notice('search', e.status === 404 ? tx('placeNotFound', q) : tx('placeUnreachable', e.message), 8000);
  } finally {
    setBusy(false);
  }
}

function goToPlace(f) {
  const [lon, lat] = f.geometry.coordinates;
  state.places = [];
  placeLayer.clearLayers();
  L.circleMarker([lat, lon], { radius: 9, color: '#1f4fa8', weight: 3, fill: false, interactive: false, className: 'place' })
    .bindTooltip(`<span translate="no">${escapeHTML(f.properties.title)}</span>`, { permanent: true, direction: 'right', className: 'place-label' }).addTo(placeLayer);
  // On a phone the list covers half the map: close it so the move is seen.
  if (document.body.classList.contains('narrow') && state.mode === 'list') closeList();
  map.setView([lat, lon], Math.max(map.getZoom(), 15));
  if (state.mode === 'list') renderList();
}
