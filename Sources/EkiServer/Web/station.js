// The station screen: the entry whole (/api/station, or the snapshot's when offline), its visits
// with their kinds (乗車 / 降車 / 乗換 / 通過) from the mirror of the person's visits (visits.js;
// the server's list until the first sync), 「今日乗下車しました」 or a date to record one, 削除 to
// remove one. A visit is recorded in IndexedDB first (the pin turns green at once) and synced.
// Fires `eki:station` (detail = the feature) after it is filled.
'use strict';

let current = null;
let changing = false;  // a change of the open station is being applied (it fills the screen itself)

function kindText(kind) { return kind ? t(kind) : ''; }

// reveal: pan the map so that the station stays in sight beside or above the screen (from its
// callout; not from 一覧, whose rows follow the view).
async function openStation(key, { reveal = false } = {}) {
  map.closePopup();
  setBusy(true);
  try {
    const f = await getJSON(`/api/station?${new URLSearchParams({ key })}`);
    current = f;
    const p = f.properties;
    p.serverVisits = p.visits || [];
    // The mirror knows the person's visits once synced (or when this page recorded some offline).
    if (visits.meta.synced || stations.status.offline) {
      p.visits = visits.of(p.key);
      const done = visits.completion(p.key);
      p.visited = done !== undefined;
      p.completed = done || null;
    }
    $('st-name').textContent = p.name + (p.open ? '' : t('closed'));
    $('st-reading').textContent = p.reading || '';
    $('st-operator').textContent = operatorName(p);
    $('st-class').textContent = p.class === 'shinkansen' ? t('shinkansen') : t('conventional');
    // A suspended station (or a dated closure): its status, and whether the person's rules count it.
    const status = p.status && p.status !== 'open' ? t(`status.${p.status}`) : null;
    $('st-status').textContent = status === null ? ''
      : [p.status_since ? t('statusSince', status, p.status_since) : status,
        p.status === 'suspended' && visits.meta.rules !== 'all' ? t('notCounted') : null].filter(Boolean).join(t('listSep'));
    $('st-status').hidden = $('st-status-head').hidden = status === null;
    $('st-lines').textContent = p.lines.join(t('listSep')) || '-';
    $('st-prefecture').textContent = p.prefecture || '-';
    $('st-completed').textContent = p.visited ? t('done', p.completed || t('dayUnknown')) : t('notYet');
    $('st-key').textContent = p.key;
    // The server's visits carry their ids and photos (the mirror's do not): the cards match them by uid.
    visitCards.render($('st-visits'), p.visits, f.properties.serverVisits || [], {
      removeVisit, setNote: (v, note) => changeVisit(() => visits.setNote(v, note)), refresh: () => openStation(p.key),
    });
    $('record').hidden = config.readOnly;
    $('record-error').hidden = true;
    $('station').hidden = false;
    $('station').dataset.key = p.key;
    if (reveal) keepInView(L.latLng(f.geometry.coordinates[1], f.geometry.coordinates[0]));
    document.dispatchEvent(new CustomEvent('eki:station', { detail: f }));
  } catch (e) {
    notice('station', tx('cannotStation', e.message), 8000);
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

// Applies a visit change of the open station (`change` gets its key): the pin takes the mirror's
// state at once, the change is synced (when the network is there), and the station screen is
// filled again; an error (in the page's language) is shown under the buttons.
async function changeVisit(change) {
  if (!current) return;
  const key = current.properties.key;
  setBusy(true);
  changing = true;
  try {
    await change(key);
    const done = visits.completion(key);
    setPinVisited(key, done !== undefined, done || null);
    if (state.filter === 'unvisited' && done !== undefined) reload();
    await visits.sync().catch(() => {});  // offline: sent when the network returns
    await openStation(key);
  } catch (e) {
    $('record-error').textContent = e.message;
    $('record-error').hidden = false;
  } finally {
    changing = false;
    setBusy(false);
  }
}

function record(text) {
  const kind = $('visit-kind').value || null;
  return changeVisit(async (key) => {
    const date = visits.parseDate(text);
    await visits.record({ key, date, kind, note: null });
  });
}

// A visit listed by the server before the first sync carries its uid; one of the mirror its id.
function removeVisit(v) {
  const id = typeof v.id === 'string' ? v.id : v.uid;
  return changeVisit(() => visits.remove(id, { key: v.key, date: v.date, kind: v.kind, note: v.note, updated_at: v.updated_at }));
}

// Another device's changes (or this page's) arriving: pins, and the open station screen.
visits.onChange((keys) => {
  if (keys === null) { reload(); return; }
  for (const key of keys) {
    const done = visits.completion(key);
    setPinVisited(key, done !== undefined, done || null);
  }
  if (current && keys.includes(current.properties.key) && !$('station').hidden && !changing) {
    openStation(current.properties.key);
  }
});

$('today').addEventListener('click', () => record(today()));
$('record').addEventListener('submit', (e) => { e.preventDefault(); record($('visit-date').value.trim() || null); });
