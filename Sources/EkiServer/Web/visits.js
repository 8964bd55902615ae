// The person's visits, mirrored in IndexedDB (database `eki`, store `visits` keyed by the visit's
// UUID; store `meta`: the sync cursor, the account, the counting settings: transfers, rules). A visit recorded on the page
// is written here first — with its id (crypto.randomUUID()) and updated_at (RFC 3339, ms, UTC) —
// and marked unsent; a deletion becomes a tombstone (deleted: true, a newer updated_at). Then
// POST /api/sync sends every unsent change and brings back the server's changes since the cursor;
// the last updated_at wins (ties: the deletion), as on the server. Sync runs on load, when the
// network returns (`online`), every 30 s, when the page is shown again, and after each change;
// nothing unsent leaves IndexedDB before the server has acknowledged it, so a reload, a closed
// tab or a restarted browser loses nothing. Loaded after map.js; uses notice() and t().
'use strict';

const visits = (() => {
  const i18nHTML = (...a) => window.eki.tx(...a);
  const mirror = new Map();   // id -> {id, key, date, kind, note, updated_at, deleted, pending}
  const meta = { cursor: null, user: undefined, transferCounts: true, rules: 'oritsubushi', synced: false };
  let aliases = {};
  let db = null;
  const listeners = [];

  // --- IndexedDB ----------------------------------------------------------------------------------

  function request(r) {
    return new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
  }

  function open() {
    const r = indexedDB.open('eki', 1);
    r.onupgradeneeded = () => {
      r.result.createObjectStore('visits', { keyPath: 'id' });
      r.result.createObjectStore('meta', { keyPath: 'name' });
    };
    return request(r);
  }

  function transaction(stores, mode, body) {
    return new Promise((resolve, reject) => {
      const x = db.transaction(stores, mode);
      const out = body(x);
      x.oncomplete = () => resolve(out);
      x.onerror = () => reject(x.error);
      x.onabort = () => reject(x.error || new Error('IndexedDB transaction aborted'));
    });
  }

  function putMeta(x, name, value) { x.objectStore('meta').put({ name, value }); }

  const ready = (async () => {
    try {
      db = await open();
      const [rows, metas] = await transaction(['visits', 'meta'], 'readonly', (x) => [x.objectStore('visits').getAll(), x.objectStore('meta').getAll()])
        .then(([a, b]) => Promise.all([a.result ? a : request(a), b.result ? b : request(b)]).then(() => [a.result, b.result]));
      for (const v of rows) mirror.set(v.id, v);
      for (const m of metas) {
        if (m.name === 'cursor') meta.cursor = m.value;
        if (m.name === 'user') meta.user = m.value;
        if (m.name === 'transferCounts') meta.transferCounts = m.value;
        if (m.name === 'rules') meta.rules = m.value;
      }
      meta.synced = meta.cursor !== null;
    } catch (e) {
      console.error('IndexedDB', e);
      notice('visits', i18nHTML('visitsNoStore', e.message), 10000);
    }
  })();

  // --- Reading the mirror -------------------------------------------------------------------------

  function setAliases(a) { aliases = a || {}; }
  function resolve(key) { return aliases[key] || key; }

  function counts(kind) { return kind !== 'pass' && (kind !== 'transfer' || meta.transferCounts); }

  // The completion date of the entry with this current key: 'YYYY[-MM[-DD]]', '' when visited on a
  // day not known, undefined when not visited (VisitedStations: the earliest counting visit).
  function completion(key) {
    let best;
    for (const v of mirror.values()) {
      if (v.deleted || !counts(v.kind) || resolve(v.key) !== key) continue;
      const d = v.date || '';
      if (best === undefined || d < best) best = d;
    }
    return best;
  }

  // The live visits of an entry, by date (undated first) then updated_at, as the station screen
  // lists them: {id, key, date, kind, note}.
  function of(key) {
    return [...mirror.values()].filter((v) => !v.deleted && resolve(v.key) === key)
      .sort((a, b) => ((a.date || '') < (b.date || '') ? -1 : (a.date || '') > (b.date || '') ? 1 : a.updated_at < b.updated_at ? -1 : 1))
      .map(({ id, key: k, date, kind, note }) => ({ id, key: k, date, kind, note }));
  }

  // The keys of unsent changes (their pins take the mirror's colour over a server answer).
  function pendingKeys() {
    const keys = new Set();
    for (const v of mirror.values()) if (v.pending) keys.add(resolve(v.key));
    return keys;
  }

  // A server answer (FeatureCollection or Feature) with the visited state of entries that have
  // unsent changes taken from the mirror.
  function overlay(body) {
    const keys = pendingKeys();
    if (!keys.size || !body) return body;
    const fix = (f) => {
      if (!f || !f.properties || !keys.has(f.properties.key)) return;
      const done = completion(f.properties.key);
      f.properties.visited = done !== undefined;
      f.properties.completed = done ? done : null;
    };
    if (Array.isArray(body.features)) body.features.forEach(fix); else if (body.type === 'Feature') fix(body);
    return body;
  }

  // --- Recording --------------------------------------------------------------------------------

  const now = () => new Date().toISOString();   // 2026-12-02T18:30:00.123Z
  const uuid = () => (crypto.randomUUID ? crypto.randomUUID()
    : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16)));

  async function save(v) {
    mirror.set(v.id, v);
    if (db) await transaction(['visits'], 'readwrite', (x) => { x.objectStore('visits').put(v); });
    for (const f of listeners) f([resolve(v.key)]);
    showUnsent();
  }

  // A line over the map while changes wait and the server cannot be reached: 未送信 N 件.
  function showUnsent() {
    const n = [...mirror.values()].filter((v) => v.pending).length;
    notice('unsent', n && (stations.status.offline || status.lastError) ? i18nHTML('unsent', n) : '');
  }

  // Records a visit of `key` (date already checked by parseDate): stored unsent, then synced.
  // Throws a message for the same key, date and kind recorded already (one visit, as the server
  // merges them).
  async function record({ key, date, kind, note }) {
    await ready;
    const same = [...mirror.values()].find((v) => !v.deleted && resolve(v.key) === resolve(key) && (v.date || null) === (date || null)
      && (v.kind || null) === (kind || null));
    if (same) throw new Error(t('visitExists', key, date || t('dayUnknown'), kind ? t(kind) : ''));
    const v = { id: uuid(), key, date: date || null, kind: kind || null, note: note || null, updated_at: now(), deleted: false, pending: 1 };
    await save(v);
    schedule(0);
    return v;
  }

  // Deletes the visit with this id: a tombstone, sent at the next sync. `known` gives the visit's
  // fields when the mirror does not hold it yet (a visit listed by the server before the first sync).
  async function remove(id, known) {
    await ready;
    const old = mirror.get(id) || (known && { ...known, id });
    if (!old) return;
    let stamp = now();
    if (old.updated_at && stamp <= old.updated_at) stamp = new Date(Date.parse(old.updated_at) + 1).toISOString();
    await save({ ...old, updated_at: stamp, deleted: true, pending: 1 });
    schedule(0);
  }

  // Sets the note (memo) of visit `v` (the mirror's, or one the server listed before the first
  // sync): a later edit, sent at the next sync.
  async function setNote(v, note) {
    await ready;
    const id = typeof v.id === 'string' ? v.id : v.uid;
    const old = mirror.get(id) || { key: v.key, date: v.date, kind: v.kind, note: v.note, updated_at: v.updated_at, deleted: false, id };
    let stamp = now();
    if (old.updated_at && stamp <= old.updated_at) stamp = new Date(Date.parse(old.updated_at) + 1).toISOString();
    await save({ ...old, note: note || null, updated_at: stamp, pending: 1 });
    schedule(0);
  }

  // --- Sync -------------------------------------------------------------------------------------

  let inFlight = null, timer = null;
  const status = { syncs: 0, sent: 0, received: 0, lastOK: null, lastError: null };

  function csrfMeta() {
    const m = document.querySelector('meta[name="eki-csrf"]');
    return m ? m.content : '';
  }

  // The CSRF token of the session, read again from /api/session (a page from the service worker's
  // cache may carry an old one); the page's own when the server has no such call.
  async function csrf() {
    try {
      const r = await fetch('/api/session', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (r.status === 401) throw Object.assign(new Error('login_required'), { login: true });
      if (r.ok) {
        const s = await r.json();
        if (s.csrf) {
          const m = document.querySelector('meta[name="eki-csrf"]');
          if (m) m.content = s.csrf;
          if (meta.user !== undefined && meta.user !== s.user) await switchAccount(s.user);
          else if (meta.user === undefined) await setUser(s.user);
          return s.csrf;
        }
      }
    } catch (e) {
      if (e.login) throw e;
      if (e.name === 'TypeError') throw e;  // no network
    }
    return csrfMeta();
  }

  async function setUser(user) {
    meta.user = user;
    if (db) await transaction(['meta'], 'readwrite', (x) => putMeta(x, 'user', user));
  }

  // Another account on this browser: the mirror is the other person's; start afresh (their
  // unsent changes cannot be sent under this account).
  async function switchAccount(user) {
    mirror.clear();
    meta.cursor = null; meta.synced = false;
    if (db) await transaction(['visits', 'meta'], 'readwrite', (x) => { x.objectStore('visits').clear(); x.objectStore('meta').clear(); putMeta(x, 'user', user); });
    meta.user = user;
    for (const f of listeners) f(null);
  }

  const change = (v) => ({ id: v.id, key: v.key, date: v.date || null, kind: v.kind || null, note: v.note || null,
    updated_at: v.updated_at, deleted: !!v.deleted });

  // Sends the unsent changes and applies the server's. Resolves to the number of changes applied
  // here; rejects when the server cannot be reached or refuses (the changes stay unsent).
  function sync() {
    if (inFlight) return inFlight.then(() => sync());
    inFlight = (async () => {
      await ready;
      const out = [...mirror.values()].filter((v) => v.pending).map((v) => ({ ...v }));
      const token = await csrf();
      const r = await fetch('/api/sync', {
        method: 'POST', cache: 'no-store',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': token },
        body: JSON.stringify({ since: meta.cursor, changes: out.map(change) }),
      });
      const answer = await r.json().catch(() => ({ message: `HTTP ${r.status}` }));
      if (r.status === 401) { location.assign('/login'); throw new Error(answer.message || 'login_required'); }
      if (r.status === 400 && Number.isInteger(answer.index) && out[answer.index]) {
        // One change the server will never take (the page checks dates first): dropped with its message.
        const bad = out[answer.index];
        mirror.delete(bad.id);
        if (db) await transaction(['visits'], 'readwrite', (x) => { x.objectStore('visits').delete(bad.id); });
        notice('visits', i18nHTML('visitRefused', answer.message || ''), 10000);
        for (const f of listeners) f([resolve(bad.key)]);
      }
      if (!r.ok) throw Object.assign(new Error(answer.message || `HTTP ${r.status}`), { status: r.status });
      const changed = new Set();
      const rows = [];
      for (const v of out) {
        const m = mirror.get(v.id);
        if (m && m.updated_at === v.updated_at && m.pending) { m.pending = 0; rows.push(m); }
      }
      for (const c of answer.changes || []) {
        const m = mirror.get(c.id);
        if (m && m.pending && (m.updated_at > c.updated_at || (m.updated_at === c.updated_at && m.deleted))) continue;
        if (m && !m.pending && m.updated_at === c.updated_at && !!m.deleted === !!c.deleted) continue;
        const v = { id: c.id, key: c.key, date: c.date, kind: c.kind, note: c.note, updated_at: c.updated_at, deleted: !!c.deleted, pending: 0 };
        mirror.set(v.id, v);
        rows.push(v);
        changed.add(resolve(v.key));
        if (m) changed.add(resolve(m.key));
      }
      meta.cursor = answer.cursor ?? meta.cursor;
      meta.synced = true;
      if (answer.counting && typeof answer.counting.transfer_counts === 'boolean') meta.transferCounts = answer.counting.transfer_counts;
      if (answer.counting && (answer.counting.rules === 'oritsubushi' || answer.counting.rules === 'all')) meta.rules = answer.counting.rules;
      if (db) {
        await transaction(['visits', 'meta'], 'readwrite', (x) => {
          for (const v of rows) x.objectStore('visits').put(v);
          putMeta(x, 'cursor', meta.cursor);
          putMeta(x, 'transferCounts', meta.transferCounts);
          putMeta(x, 'rules', meta.rules);
        });
      }
      status.syncs += 1; status.sent += out.length; status.received += (answer.changes || []).length;
      status.lastOK = Date.now(); status.lastError = null;
      for (const f of listeners) f([...changed]);
      return changed.size;
    })();
    const p = inFlight;
    let failed = false;
    p.then(() => {
      stations.setOffline(false);
    }, (e) => {
      failed = true;
      status.lastError = e.message;
      if (e.name === 'TypeError') stations.setOffline(true);
    }).finally(() => {
      inFlight = null;
      showUnsent();
      if ([...mirror.values()].some((v) => v.pending)) schedule(failed ? 15000 : 2000);
    });
    return p;
  }

  // Syncs after `ms` (one timer; an earlier call wins).
  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(() => { sync().catch(() => {}); }, ms);
  }

  function onChange(f) { listeners.push(f); }

  // --- Dates, as VisitDate(parsing:) reads them -----------------------------------------------------

  // 'YYYY[-MM[-DD]]', null for unknown; throws the API's sentence for text it cannot read.
  function parseDate(text) {
    const s = (text || '').normalize('NFKC').trim();
    if (!s || s === '?' || s.toLowerCase() === 'unknown') return null;
    const digits = (p) => /^[0-9]+$/.test(p);
    let parts;
    const unreadable = () => Object.assign(new Error(t('badDate', text)), { date: text });
    if (s.includes('年')) {
      const m = /^([0-9]{4})年(?:([0-9]{1,2})月(?:([0-9]{1,2})日)?)?$/.exec(s);
      if (!m) throw unreadable();
      parts = [m[1], m[2], m[3]].filter((p) => p !== undefined);
    } else if (s.includes('/')) {
      parts = s.split('/');
      if (parts.length < 2 || parts.length > 3 || parts[0].length !== 4 || parts.slice(1).some((p) => p.length < 1 || p.length > 2)
        || !parts.every(digits)) throw unreadable();
    } else {
      parts = s.split('-');
      if (parts.length > 3 || !parts.every((p, i) => p.length === [4, 2, 2][i] && digits(p))) throw unreadable();
    }
    const [y, m, d] = parts.map(Number);
    const noSuch = () => Object.assign(new Error(t('noSuchDate', text)), { date: text });
    if (y < 1000 || y > 9999) throw noSuch();
    if (m !== undefined && (m < 1 || m > 12)) throw noSuch();
    if (d !== undefined && (d < 1 || d > new Date(Date.UTC(y, m, 0)).getUTCDate())) throw noSuch();
    const two = (n) => String(n).padStart(2, '0');
    return [String(y), m !== undefined ? two(m) : null, d !== undefined ? two(d) : null].filter(Boolean).join('-');
  }

  // --- When to sync ----------------------------------------------------------------------------------

  window.addEventListener('online', () => schedule(0));
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') schedule(0); });
  setInterval(() => { if (!inFlight) sync().catch(() => {}); }, 30000);
  ready.then(() => schedule(0));


  window.eki.addStrings({
    ja: {
      visitsNoStore: 'この端末に記録を保存できません：{0}', visitRefused: '記録を受け付けられませんでした：{0}',
      visitExists: '{0} の {1}{2}はすでに記録にあります', badDate: '日付「{0}」が読めません（YYYY、YYYY-MM、YYYY-MM-DD、YYYY/M/D、YYYY年M月D日 の形で）',
      noSuchDate: '日付「{0}」は存在しません', unsent: '未送信 {0} 件',
    },
    en: {
      visitsNoStore: 'visits cannot be kept on this device: {0}', visitRefused: 'the server refused a visit: {0}',
      visitExists: 'a visit already records {0} on {1} {2}', badDate: "invalid date '{0}': expected YYYY, YYYY-MM or YYYY-MM-DD",
      noSuchDate: "invalid date '{0}': no such date", unsent: '{0} not sent yet',
    },
  });

  return { ready, record, remove, setNote, sync, schedule, completion, of, overlay, resolve, setAliases, onChange, parseDate,
    pendingKeys, status, meta, mirror };
})();
