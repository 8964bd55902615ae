// The station screen: the entry whole (/api/station), its visits with their kinds (乗車 / 降車 /
// 乗換 / 通過), 「今日乗下車しました」 or a date to record one, 削除 to remove one. Fires
// `eki:station` (detail = the feature) after it is filled.
'use strict';

let current = null;

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
    $('st-name').textContent = p.name + (p.open ? '' : t('closed'));
    $('st-reading').textContent = p.reading || '';
    $('st-operator').textContent = operatorName(p);
    $('st-class').textContent = p.class === 'shinkansen' ? t('shinkansen') : t('conventional');
    $('st-lines').textContent = p.lines.join(t('listSep')) || '-';
    $('st-prefecture').textContent = p.prefecture || '-';
    $('st-completed').textContent = p.visited ? t('done', p.completed || t('dayUnknown')) : t('notYet');
    $('st-key').textContent = p.key;
    const ul = $('st-visits');
    ul.innerHTML = '';
    for (const v of p.visits) {
      const li = document.createElement('li');
      const text = document.createElement('span');
      text.textContent = [v.date || t('dayUnknown'), kindText(v.kind)].filter(Boolean).join(t('gap'));
      li.appendChild(text);
      if (v.note) {
        const note = document.createElement('span');
        note.translate = false;
        note.textContent = t('gap') + v.note;
        li.appendChild(note);
      }
      li.dataset.kind = v.kind || '';
      if (!config.readOnly) {
        const del = document.createElement('button');
        del.textContent = t('delete');
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
// state at once, `after` sees the answer, and the station screen is read again; an error (the
// API's message, in the page's language) is shown under the buttons.
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
