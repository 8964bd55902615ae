// The search folds of `eki search` (EkiKit's TextFold.fold and SearchFold), in the page, so that a
// query typed offline is folded as the server folds it and compared with the folded forms the
// station snapshot carries (/api/snapshot). Kept in step with TextFold.foldVersion: the snapshot
// says which version its forms were made with (`fold`), and `foldVersion` here is the one this
// code implements. The variant-kanji table comes with the snapshot (`kanji_variants`).
'use strict';

const searchFold = (() => {
  const foldVersion = 5;
  let kanji = new Map();  // variant -> standard form (KanjiVariants)

  const isASCII = (s) => /^[\x00-\x7f]*$/.test(s);

  // NFKC, then NFC (TextFold.nfkc).
  function nfkc(s) { return isASCII(s) ? s : s.normalize('NFKC').normalize('NFC'); }

  const numerals = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

  // TextFold.chomeDigits: a kanji numeral up to 九十九 right before 丁目 in digits.
  function chomeDigits(text) {
    return text.replace(/([一二三四五六七八九十]+)(?=丁目)/g, (run) => {
      const ten = run.indexOf('十');
      if (ten < 0) return run.length === 1 ? String(numerals[run]) : run;
      const tens = run.slice(0, ten), ones = run.slice(ten + 1);
      if (tens.length > 1 || ones.length > 1 || ones === '十') return run;
      return String((tens ? numerals[tens] : 1) * 10 + (ones ? numerals[ones] : 0));
    });
  }

  // TextFold.fold: NFKC, 〜 → ~, 丁目 numerals, variant kanji, ヶ ヵ → ケ, ッ → ツ, katakana → hiragana.
  function fold(s, hiragana = false) {
    if (isASCII(s)) return s;
    let text = nfkc(s);
    if (text.includes('丁')) text = chomeDigits(text);
    if (text.includes('〜')) text = text.replace(/〜/g, '~');
    if (isASCII(text)) return text;
    let out = '';
    for (const ch of text) {
      let v = ch.codePointAt(0) < 0x3400 ? ch : (kanji.get(ch) || ch);
      let c = v.codePointAt(0);
      if (c === 0x30f6 || c === 0x30f5) c = 0x30b1;
      else if (c === 0x30c3) c = 0x30c4;
      if (hiragana && ((c >= 0x30a1 && c <= 0x30f6) || c === 0x30fd || c === 0x30fe)) c -= 0x60;
      out += c === v.codePointAt(0) ? v : String.fromCodePoint(c);
    }
    return out;
  }

  const plainLatin = new Map([...'āīūēōâîûêôĀĪŪĒŌÂÎÛÊÔ'].map((m, i) => [m, 'aiueo'[i % 5]]));

  // SearchFold.commonScalar: null for a dropped character.
  function common(ch) {
    const c = ch.codePointAt(0);
    if (c <= 0x20 || c === 0x7f || c === 0x3000 || c === 0x30fb || c === 0xff65 || c === 0xb7) return null;
    if (c >= 0x41 && c <= 0x5a) return String.fromCharCode(c + 32);
    if ((c >= 0x30a1 && c <= 0x30f6) || c === 0x30fd || c === 0x30fe) return String.fromCodePoint(c - 0x60);
    return plainLatin.get(ch) || ch;
  }

  // SearchFold.name: station, line and operator names.
  function name(s) {
    let out = '';
    for (const ch of fold(s, true)) {
      const u = common(ch);
      if (u === null) continue;
      const c = u.codePointAt(0);
      if (c === 0x304b || c === 0x304c || c === 0x3051 || c === 0x3095 || c === 0x3096) out += 'け';
      else if (c === 0x3063) out += 'つ';
      else out += u;
    }
    return out;
  }

  const small = new Map([...'ぁぃぅぇぉっゃゅょゎ'].map((k) => [k, String.fromCodePoint(k.codePointAt(0) + 1)]));
  small.set('ゕ', 'か'); small.set('ゖ', 'け');
  const vowels = new Map();
  for (const [v, kana] of [['あ', 'ぁあかがさざただなはばぱまゃやらゎわゕ'], ['い', 'ぃいきぎしじちぢにひびぴみりゐ'],
    ['う', 'ぅうくぐすずっつづぬふぶぷむゅゆるゔ'], ['え', 'ぇえけげせぜてでねへべぺめれゑゖ'], ['お', 'ぉおこごそぞとどのほぼぽもょよろを']]) {
    for (const k of kana) vowels.set(k, v);
  }

  // SearchFold.reading: hiragana, small kana full size, ー → the vowel before it.
  function reading(s) {
    const out = [];
    for (const ch of nfkc(s)) {
      const u = common(ch);
      if (u === null) continue;
      if (u === 'ー' || u === '―' || u === '−') {
        const v = out.length ? vowels.get(out[out.length - 1]) : undefined;
        if (v) out.push(v);
        continue;
      }
      out.push(small.get(u) || u);
    }
    return out.join('');
  }

  const isVowel = (c) => 'aiueoy'.includes(c);

  // SearchFold.romaji: Latin letters and digits, long vowels once, m before b m p → n.
  function romaji(s) {
    const text = isASCII(s) ? s : nfkc(s).normalize('NFD');
    const letters = [];
    for (const ch of text) {
      const c = ch.codePointAt(0);
      if (c >= 0x41 && c <= 0x5a) letters.push(String.fromCharCode(c + 32));
      else if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) letters.push(ch);
    }
    const out = [];
    for (let i = 0; i < letters.length; i++) {
      const c = letters[i], next = letters[i + 1], last = out[out.length - 1];
      if (last !== undefined) {
        if (last === 'o' && (c === 'o' || c === 'u')) continue;
        if (last === 'u' && c === 'u') continue;
        if (last === 'o' && c === 'h' && !(next !== undefined && isVowel(next))) continue;
      }
      if (c === 'm' && (next === 'b' || next === 'm' || next === 'p')) { out.push('n'); continue; }
      out.push(c);
    }
    return out.join('');
  }

  // TextFold.isJapanese: kana or CJK ideographs.
  function isJapanese(s) {
    for (const ch of s) {
      const c = ch.codePointAt(0);
      if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff) || (c >= 0xff66 && c <= 0xff9f)
        || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)
        || (c >= 0x20000 && c <= 0x3ffff)) return true;
    }
    return false;
  }

  const length = (s) => [...s].length;
  const dropLast = (s, n) => [...s].slice(0, -n).join('');

  // SearchOptions.Scope.fields and SearchQuery.init: the query folded per field, as
  // [{field, base, full}] (a field whose fold is empty is left out).
  const scopes = { name: ['name', 'romaji'], reading: ['reading', 'romaji'], line: ['line'],
    any: ['name', 'reading', 'romaji', 'line'] };
  function query(text, scope) {
    const out = [];
    for (const field of scopes[scope] || scopes.any) {
      let full, base;
      if (field === 'name') {
        full = name(text);
        base = length(full) > 1 && full.endsWith('駅') ? dropLast(full, 1) : full;
      } else if (field === 'reading') {
        full = reading(text);
        base = length(full) > 3 && full.endsWith('えき') ? dropLast(full, 2) : full;
      } else if (field === 'romaji') {
        full = isJapanese(text) ? '' : romaji(text);
        base = full.length > 5 && full.endsWith('eki') ? full.slice(0, -3) : full;
      } else {
        full = name(text); base = full;
      }
      if (base) out.push({ field, base, full });
    }
    return out;
  }

  // SearchQuery.matches: does a field's framed forms (\u0001a\u0001b\u0001) match at tier?
  function matches(tier, q, framed) {
    if (!framed) return false;
    if (tier === 'exact') return framed.includes(`\u0001${q.base}\u0001`) || framed.includes(`\u0001${q.full}\u0001`);
    if (tier === 'prefix') return framed.includes(`\u0001${q.base}`);
    return framed.includes(q.base);
  }

  function setKanjiVariants(table) { kanji = new Map(Object.entries(table || {})); }

  return { foldVersion, nfkc, fold, name, reading, romaji, isJapanese, query, matches, setKanjiVariants };
})();
