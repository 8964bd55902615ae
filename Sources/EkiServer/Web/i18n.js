// The page's words in Japanese and English: one dictionary per language. The language is the
// server's choice from the request's Accept-Language (config.lang); on a static page without the
// settings (login.html) the browser's first language. `eki.t(key, ...args)` fills
// `{0}`, `{1}`… from args (`eki.tx` gives the same as HTML, the args marked translate="no"); static HTML names its key in data-i18n (text), data-i18n-title,
// data-i18n-placeholder and data-i18n-aria (aria-label), filled by `eki.applyI18n(root)`.
'use strict';

window.eki = window.eki || {};

(function () {
  const meta = document.querySelector('meta[name="eki-config"]');
  let lang = 'ja';
  if (meta) {
    try { lang = JSON.parse(meta.content).lang === 'en' ? 'en' : 'ja'; } catch (e) { /* the config error shows later */ }
  } else {
    // A static page (login.html): the browser's first language, Japanese unless English.
    lang = /^en\b/i.test((navigator.languages && navigator.languages[0]) || navigator.language || '') ? 'en' : 'ja';
  }
  const strings = { ja: {}, en: {} };

  function addStrings(dict) {
    for (const l of ['ja', 'en']) Object.assign(strings[l], dict[l] || {});
  }

  function t(key, ...args) {
    const s = strings[lang][key] ?? strings.ja[key] ?? key;
    return s.replace(/\{(\d)\}/g, (_, i) => String(args[+i] ?? ''));
  }

  // The same as HTML: the args are data (names, queries, the API's messages), escaped and marked
  // translate="no".
  function tx(key, ...args) {
    const esc = (v) => String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
    const s = strings[lang][key] ?? strings.ja[key] ?? key;
    return esc(s).replace(/\{(\d)\}/g, (_, i) => `<span translate="no">${esc(args[+i] ?? '')}</span>`);
  }

  // root itself too, when it is an element.
  function applyI18n(root) {
    const all = (sel) => [...(root.matches && root.matches(sel) ? [root] : []), ...root.querySelectorAll(sel)];
    for (const el of all('[data-i18n]')) el.textContent = t(el.dataset.i18n);
    for (const el of all('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
    for (const el of all('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
    for (const el of all('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  }

  addStrings({
    ja: {
      title: '降りつぶし — EkiKit',
      locate: '現在位置', youAreHere: '現在位置', search: '検索', searchPlaceholder: '駅名・読み・路線・地点で検索',
      clear: '検索をやめる', scope: '検索種別', byName: '駅名', byReading: '読み', byLine: '路線', byPlace: '地点',
      match: '一致', prefix: '前方一致', partial: '部分一致',
      mapArea: '地図', list: '一覧', stationScreen: '駅情報', close: '閉じる',
      operator: '事業者', class: '区分', lines: '路線', prefecture: '都道府県', visitedHead: '乗下車',
      today: '今日乗下車しました', date: '日付', kind: '種別', record: '記録', visits: '記録',
      board: '乗車', alight: '降車', transfer: '乗換', pass: '通過',
      stationsShown: '表示する駅', all: '全駅', visitedOnly: '乗下車済駅のみ', unvisitedOnly: '未乗下車駅のみ',
      view: '表示', modeMap: '地図', modeAerial: '空撮', modeHybrid: '複合', modeList: '一覧',
      missing: 'Leaflet が見つかりません。Debian の libjs-leaflet を入れてください（apt-get install libjs-leaflet）。',
      closed: '（廃止）', shinkansen: '新幹線', conventional: '在来線', withShinkansen: '・新幹線',
      statusHead: '状態', 'status.suspended': '休止中', 'status.abolished': '廃止', 'status.brt': 'BRTに転換',
      statusSince: '{0}（{1}から）', notCounted: '数えない（降りつぶしのルール）',
      openStation: '駅情報 ›', more: 'ほかに {0} 駅あります：ズームしてください', noMatch: '「{0}」に一致する駅はありません',
      cannotLoad: '読み込めません：{0}', placesTitle: '地点「{0}」', searchTitle: '検索「{0}」：{1} 駅',
      listTitle: '一覧：{0} 駅（地図の中心から近い順）', stackTitle: '{0}：同じ地点の {1} 駅', cannotList: '一覧を読めません：{0}',
      placeNotFound: '「{0}」は見つかりません', placeUnreachable: '地点検索サービスに接続できません：{0}',
      noPosition: '現在位置を取得できません：{0}', cannotStation: '駅情報を読めません：{0}',
      done: '済（{0}）', dayUnknown: '日付不明', notYet: 'まだ', delete: '削除',
      clusterTitle: '{0}：{1} / {2} 駅乗下車済（タップで拡大）', stackBadge: '同じ地点の {0} 駅（タップで一覧）',
      tilesFailed: '地図タイルを読み込めません。オフライン地図に切り替えました',
      aerialFailed: '空撮タイルを読み込めません。地図に戻しました',
      mapOffline: 'タイルなし：オフライン地図（路線・駅名・都道府県界）',
      mapFailing: '地図タイルを読み込めないため、オフライン地図を表示しています',
      aerialNone: '空撮タイルが設定されていません（--aerial-tiles）', aerialFailing: '空撮タイルを読み込めません',
      hybridNone: '複合には空撮タイルが必要です（--aerial-tiles）',
      source: '出典：国土数値情報（鉄道データ・行政区域データ）（国土交通省）を加工して作成',
      zoomIn: '拡大', zoomOut: '縮小', km: '{0} km', m: '{0} m', listSep: '、', gap: '　',
    },
    en: {
      title: 'Oritsubushi — EkiKit',
      locate: 'Current position', youAreHere: 'You are here', search: 'Search', searchPlaceholder: 'Search a station, reading, line or place',
      clear: 'Clear the search', scope: 'Search by', byName: 'Name', byReading: 'Reading', byLine: 'Line', byPlace: 'Place',
      match: 'Match', prefix: 'Prefix', partial: 'Partial',
      mapArea: 'Map', list: 'List', stationScreen: 'Station', close: 'Close',
      operator: 'Operator', class: 'Class', lines: 'Lines', prefecture: 'Prefecture', visitedHead: 'Visited',
      today: 'I got on or off here today', date: 'Date', kind: 'Kind', record: 'Record', visits: 'Visits',
      board: 'Boarded', alight: 'Alighted', transfer: 'Transfer', pass: 'Passed',
      stationsShown: 'Stations shown', all: 'All', visitedOnly: 'Visited', unvisitedOnly: 'Not yet',
      view: 'View', modeMap: 'Map', modeAerial: 'Aerial', modeHybrid: 'Hybrid', modeList: 'List',
      missing: "Leaflet is missing: install Debian's libjs-leaflet (apt-get install libjs-leaflet).",
      closed: ' (closed)', shinkansen: 'Shinkansen', conventional: 'Conventional', withShinkansen: ', Shinkansen',
      statusHead: 'Status', 'status.suspended': 'suspended', 'status.abolished': 'closed', 'status.brt': 'converted to BRT',
      statusSince: '{0} (since {1})', notCounted: 'not counted (降りつぶし rules)',
      openStation: 'Station ›', more: '{0} more stations here: zoom in', noMatch: 'No station matches “{0}”',
      cannotLoad: 'Cannot load: {0}', placesTitle: 'Places “{0}”', searchTitle: 'Search “{0}”: {1} stations',
      listTitle: 'List: {0} stations (nearest the centre first)', stackTitle: '{0}: {1} stations at this place', cannotList: 'Cannot list: {0}',
      placeNotFound: '“{0}” not found', placeUnreachable: 'The place search service is unreachable: {0}',
      noPosition: 'No current position: {0}', cannotStation: 'Cannot read the station: {0}',
      done: 'Yes ({0})', dayUnknown: 'day unknown', notYet: 'Not yet', delete: 'Delete',
      clusterTitle: '{0}: {1} of {2} stations visited (tap to zoom in)', stackBadge: '{0} stations at this place (tap for the list)',
      tilesFailed: 'Map tiles do not load: switched to the offline map',
      aerialFailed: 'Aerial tiles do not load: back to the map',
      mapOffline: 'No tiles: offline map (lines, station names, prefectures)',
      mapFailing: 'Map tiles do not load: showing the offline map',
      aerialNone: 'No aerial tiles configured (--aerial-tiles)', aerialFailing: 'Aerial tiles do not load',
      hybridNone: 'Hybrid needs aerial tiles (--aerial-tiles)',
      source: 'Source: MLIT National Land Numerical Information (railways, administrative areas), processed',
      zoomIn: 'Zoom in', zoomOut: 'Zoom out', km: '{0} km', m: '{0} m', listSep: ', ', gap: ' ',
    },
  });

  Object.assign(window.eki, { lang, t, tx, addStrings, applyI18n });
  document.documentElement.lang = lang;
})();

const { t, tx } = window.eki;
