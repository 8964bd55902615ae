// The page's data source: every /api/ read goes through stations.get(url). Online it is the
// server's answer; when the network is down (a fetch that fails, or navigator.onLine false) the
// same answer is made here from the station snapshot (/api/snapshot, kept by the service worker)
// and the visits mirrored in IndexedDB (visits.js): /api/bbox, /api/nearest, /api/search,
// /api/clusters and /api/station, in the API's shapes, so the rest of the page has one code path.
// Loaded after map.js and visits.js, before the scripts that ask.
'use strict';

const stations = (() => {
  const snap = { data: null, loading: null, etag: null, entries: [], byKey: new Map(), lines: [], members: [] };
  const status = { offline: false, since: null, answered: 0 };

  window.eki.addStrings({
    ja: {
      offlineNotice: 'オフライン：端末内の駅データで表示しています（記録は接続が戻ると送られます）',
      offlineNoAnswer: 'オフラインのため使えません', offlineNoStation: 'キー「{0}」の駅は端末内の駅データにありません',
    },
    en: {
      offlineNotice: 'Offline: showing the stations kept on this device (visits are sent when the network returns)',
      offlineNoAnswer: 'not available offline', offlineNoStation: "no entry with key '{0}' in the stations kept on this device",
    },
  });

  // The snapshot's arrays become entry objects once: {key, name, reading, operator_short, class,
  // lineIds, lines, prefecture, kind, status, lon, lat, order, nf, rf, mf, lf (framed search forms)}.
  function index(d) {
    const F = Object.fromEntries(d.fields.map((f, i) => [f, i]));
    const frame = (s) => (s ? `\u0001${s.split('\t').join('\u0001')}\u0001` : '');
    snap.lines = d.lines.map(([id, name, op, cls, color]) => ({ id, name, operator: op, class: d.classes[cls], color }));
    snap.members = snap.lines.map(() => []);
    snap.entries = d.entries.map((e, order) => {
      const lineIds = e[F.lines];
      const s = {
        key: e[F.key], name: e[F.name], reading: e[F.reading], operator_short: e[F.operator_short],
        class: d.classes[e[F.class]], lineIds, lines: lineIds.map((i) => snap.lines[i].name),
        prefecture: e[F.prefecture] >= 0 ? d.prefectures[e[F.prefecture]] : null, prefCode: e[F.prefecture] + 1,
        kind: d.kinds[e[F.kind]], status: F.status === undefined ? 'open' : d.statuses[e[F.status]], lon: e[F.lon], lat: e[F.lat], order,
        nf: frame(e[F.name_forms]), rf: frame(e[F.reading_forms]), mf: frame(e[F.romaji_forms]), lf: frame(e[F.line_forms]),
      };
      s.mx = (s.lon + 180) / 360;
      const r = (s.lat * Math.PI) / 180;
      s.my = (1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2;
      return s;
    });
    snap.byKey = new Map(snap.entries.map((s) => [s.key, s]));
    for (const s of snap.entries) for (const i of s.lineIds) snap.members[i].push(s);
    snap.aliases = d.aliases || {};
    searchFold.setKanjiVariants(d.kanji_variants);
    visits.setAliases(snap.aliases);
    snap.data = d;
  }

  // The snapshot, loaded once (the service worker answers from its cache, and checks the ETag).
  function load() {
    if (snap.data) return Promise.resolve(snap.data);
    if (!snap.loading) {
      snap.loading = fetch('/api/snapshot', { headers: { Accept: 'application/json' } }).then(async (r) => {
        if (!r.ok) throw Object.assign(new Error(`HTTP ${r.status}`), { status: r.status });
        snap.etag = r.headers.get('ETag');
        index(await r.json());
        return snap.data;
      }).catch((e) => { snap.loading = null; throw e; });
    }
    return snap.loading;
  }

  // --- The answers ------------------------------------------------------------------------------

  function completionOf(key) { return visits.completion(key); }

  function feature(s, extra) {
    const done = completionOf(s.key);
    return {
      type: 'Feature', geometry: { type: 'Point', coordinates: [s.lon, s.lat] },
      properties: { key: s.key, name: s.name, reading: s.reading, operator_short: s.operator_short, class: s.class,
        lines: s.lines, prefecture: s.prefecture, kind: s.kind, status: s.status, open: true, ...extra,
        visited: done !== undefined, completed: done === undefined ? null : done || null },
    };
  }

  function kept(filter) {
    if (filter === 'visited') return (s) => completionOf(s.key) !== undefined;
    if (filter === 'unvisited') return (s) => completionOf(s.key) === undefined;
    return () => true;
  }

  // Great-circle distance in metres (mean Earth radius): the order of nearest-first lists.
  function distance(lat1, lon1, lat2, lon2) {
    const rad = Math.PI / 180, dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad;
    const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
    return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
  }

  const inBox = (b, s) => s.lon >= b[0] && s.lat >= b[1] && s.lon <= b[2] && s.lat <= b[3];
  const byDistance = (a, b) => a.d - b.d || (a.s.key < b.s.key ? -1 : a.s.key > b.s.key ? 1 : 0);

  function bbox(p) {
    const b = p.get('bbox').split(',').map(Number), ok = kept(p.get('filter'));
    const limit = p.has('limit') ? Number(p.get('limit')) : null;
    let hits = snap.entries.filter((s) => inBox(b, s) && ok(s));
    const total = hits.length;
    if (limit !== null) {
      const clat = (b[1] + b[3]) / 2, clon = (b[0] + b[2]) / 2;
      hits = hits.map((s) => ({ s, d: distance(clat, clon, s.lat, s.lon) })).sort(byDistance).slice(0, limit).map((h) => h.s);
    } else {
      hits.sort((x, y) => (x.key < y.key ? -1 : 1));
    }
    return { type: 'FeatureCollection', total, features: hits.map((s) => feature(s)) };
  }

  function nearest(p) {
    const lat = Number(p.get('lat')), lon = Number(p.get('lon')), k = Number(p.get('k') || 10), ok = kept(p.get('filter'));
    const hits = snap.entries.filter(ok).map((s) => ({ s, d: distance(lat, lon, s.lat, s.lon) })).sort(byDistance).slice(0, k);
    return { type: 'FeatureCollection', features: hits.map((h) => feature(h.s, { distance_m: Math.round(h.d * 10) / 10 })) };
  }

  // As SearchIndex.stations(matching:): ranks exact, prefix (and partial), each first the entry's own
  // name / reading / romaji then its lines; within a rank nearest `near` first, else result order.
  function search(p) {
    const qs = searchFold.query(p.get('q') || '', p.get('by') || 'any');
    const limit = Number(p.get('limit') || 20), ok = kept(p.get('filter'));
    const near = p.get('near') ? p.get('near').split(',').map(Number) : null;
    const framed = (s, field) => (field === 'name' ? s.nf : field === 'reading' ? s.rf : field === 'romaji' ? s.mf : s.lf);
    const own = qs.filter((q) => q.field !== 'line'), other = qs.filter((q) => q.field === 'line');
    const tiers = p.get('match') === 'partial' ? ['exact', 'prefix', 'partial'] : ['exact', 'prefix'];
    const found = new Set(), out = [];
    for (const tier of tiers) {
      for (const group of [own, other]) {
        if (!group.length || out.length >= limit) continue;
        let rank = [];
        for (const s of snap.entries) {
          if (found.has(s.key) || !ok(s)) continue;
          const q = group.find((g) => searchFold.matches(tier, g, framed(s, g.field)));
          if (q) rank.push({ s, q, d: near ? distance(near[0], near[1], s.lat, s.lon) : 0 });
        }
        if (near) rank.sort((a, b) => a.d - b.d || a.s.order - b.s.order);
        rank = rank.slice(0, limit - out.length);
        for (const h of rank) {
          found.add(h.s.key);
          const extra = { matched_field: h.q.field, match: tier };
          if (near) extra.distance_m = Math.round(h.d * 10) / 10;
          out.push(feature(h.s, extra));
        }
      }
    }
    return { type: 'FeatureCollection', features: out };
  }

  // As ClusterQuery: one Web Mercator tile at zoom + 2 split by prefecture; the representative is
  // the entry nearest the mean of the members (ties by key), bbox their extent.
  function clusterAnswer(p) {
    const b = p.get('bbox').split(',').map(Number), zoom = Number(p.get('zoom')), cz = zoom + 2, n = 2 ** cz;
    const ok = kept(p.get('filter'));
    const tile = (w) => Math.min(Math.max(Math.floor(w * n), 0), n - 1);
    const mx = (lon) => (lon + 180) / 360;
    const my = (lat) => { const r = (lat * Math.PI) / 180; return (1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2; };
    const x0 = tile(mx(b[0])), x1 = tile(mx(b[2])), y0 = tile(my(b[3])), y1 = tile(my(b[1]));
    const cells = new Map();
    for (const s of snap.entries) {
      const x = tile(s.mx), y = tile(s.my);
      if (x < x0 || x > x1 || y < y0 || y > y1 || !ok(s)) continue;
      const id = `${cz}/${x}/${y}/${s.prefCode}`;
      let c = cells.get(id);
      if (!c) cells.set(id, (c = { id, members: [], sx: 0, sy: 0 }));
      c.members.push(s); c.sx += s.mx; c.sy += s.my;
    }
    let total = 0, visitedAll = 0;
    const clusters = [...cells.values()].sort((a, b2) => (a.id < b2.id ? -1 : 1)).map((c) => {
      const ax = c.sx / c.members.length, ay = c.sy / c.members.length;
      let rep = null, best = Infinity;
      const box = [Infinity, Infinity, -Infinity, -Infinity];
      let visited = 0;
      for (const s of c.members) {
        const d = (s.mx - ax) ** 2 + (s.my - ay) ** 2;
        if (d < best || (d === best && s.key < rep.key)) { best = d; rep = s; }
        box[0] = Math.min(box[0], s.lon); box[1] = Math.min(box[1], s.lat); box[2] = Math.max(box[2], s.lon); box[3] = Math.max(box[3], s.lat);
        if (completionOf(s.key) !== undefined) visited += 1;
      }
      total += c.members.length; visitedAll += visited;
      return { id: c.id, lat: rep.lat, lon: rep.lon, total: c.members.length, visited, prefecture: rep.prefecture, bbox: box };
    });
    return { zoom, cell_zoom: cz, total, visited: visitedAll, clusters };
  }

  // The station screen's entry: its fields from the snapshot, its visits and n/m from the mirror.
  function station(p) {
    const key = p.get('key');
    const s = snap.byKey.get(key) || snap.byKey.get(visits.resolve(key));
    if (!s) throw Object.assign(new Error(t('offlineNoStation', key)), { status: 404 });
    // As the server: staff-only stops never count, suspended stations not under 降りつぶし's rules.
    const countsOn = (m) => m.filter((e) => e.kind !== 'staff-only' && (e.status !== 'suspended' || visits.meta.rules === 'all'));
    const lineStats = s.lineIds.map((i) => {
      const l = snap.lines[i], members = countsOn(snap.members[i]);
      return { id: l.id, name: l.name, operator: l.operator,
        visited: members.filter((e) => completionOf(e.key) !== undefined).length, total: members.length };
    });
    return feature(s, { former_names: [], retired: null, visits: visits.of(s.key), line_stats: lineStats });
  }

  const answers = { '/api/bbox': bbox, '/api/nearest': nearest, '/api/search': search, '/api/clusters': clusterAnswer, '/api/station': station };

  async function local(url) {
    const u = new URL(url, location.href);
    const answer = answers[u.pathname];
    if (!answer) throw Object.assign(new Error(t('offlineNoAnswer')), { status: 0, offline: true });
    await Promise.all([load(), visits.ready]);
    status.answered += 1;
    return answer(u.searchParams);
  }

  function setOffline(on) {
    if (status.offline === on) return;
    status.offline = on;
    status.since = on ? Date.now() : null;
    document.body.dataset.network = on ? 'offline' : 'online';
    notice('offline', on ? tx('offlineNotice') : '');
    document.dispatchEvent(new CustomEvent('eki:network', { detail: { offline: on } }));
  }

  // The API's answer for url: the server's, or when the network is down the snapshot's.
  async function get(url, signal) {
    const local_ = answers[new URL(url, location.href).pathname];
    if (navigator.onLine === false) setOffline(true);
    if (local_ && status.offline) {
      try { return await local(url); } catch (e) { if (e.status !== undefined && e.status !== 0) throw e; }
    }
    let r;
    try {
      r = await fetch(url, { signal, headers: { Accept: 'application/json' } });
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      setOffline(true);
      if (!local_) throw Object.assign(new Error(t('offlineNoAnswer')), { status: 0, offline: true });
      return local(url);
    }
    setOffline(false);
    let body;
    try {
      body = await r.json();
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      throw Object.assign(new Error(`HTTP ${r.status}`), { status: r.status, body: null });
    }
    if (r.status === 401 && body && body.error === 'login_required') { location.assign('/login'); }
    if (!r.ok) throw Object.assign(new Error(body.message || `HTTP ${r.status}`), { status: r.status, body });
    return visits.overlay(body);
  }

  window.addEventListener('online', () => setOffline(false));
  window.addEventListener('offline', () => setOffline(true));
  document.body.dataset.network = 'online';

  return { get, load, local, setOffline, status, snapshot: snap, distance };
})();
