// The station screen's visits as cards: each visit's first photo as the card's background (its
// thumbnail, /api/photos/{id}/thumb) under a dark gradient, white text, the memo first (up to 3
// lines; 「メモを追加」 when there is none), then the date and kind. A tap on the card opens its
// detail: the whole memo to read and edit, every photo (each removable) and 「写真を追加」.
// Photos belong to the server's visit (its numeric id): a visit recorded on this device and not yet
// synced gets its photos once it is. Uploads go to POST /api/visits/{id}/photos as the file's own
// image/* type with the CSRF token; removal is DELETE /api/photos/{id}.
'use strict';

const visitCards = (() => {
  const open = new Set();  // visit ids (the mirror's or the server's) whose detail is shown

  async function csrfToken() {
    try {
      const r = await fetch('/api/session', { headers: { Accept: 'application/json' }, cache: 'no-store' });
      if (r.ok) { const s = await r.json(); if (s.csrf) return s.csrf; }
    } catch (e) { /* offline: the page's token */ }
    const m = document.querySelector('meta[name="eki-csrf"]');
    return m ? m.content : '';
  }

  async function send(method, url, body, type) {
    const headers = { 'X-CSRF-Token': await csrfToken(), Accept: 'application/json' };
    if (type) headers['Content-Type'] = type;
    const r = await fetch(url, { method, headers, body });
    if (!r.ok) {
      let message = `HTTP ${r.status}`;
      try { message = (await r.json()).message || message; } catch (e) { /* not JSON */ }
      throw new Error(message);
    }
    return r.json();
  }

  function button(text, cls, onclick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = cls;
    b.textContent = text;
    b.onclick = (e) => { e.stopPropagation(); onclick(e); };
    return b;
  }

  // The server's visit for a visit of the mirror (same uid), or the visit itself when it is the server's.
  function serverVisit(v, listed) {
    if (typeof v.id === 'number') return v;
    return listed.find((s) => s.uid === v.id) || null;
  }

  // Fills `ul` with the cards of `list` (the visits shown), `listed` the server's visits of the
  // station (with their ids and photos); `actions` = { removeVisit(v), setNote(v, note), refresh() }.
  function render(ul, list, listed, actions) {
    ul.innerHTML = '';
    ul.classList.add('visit-cards');
    for (const v of list) {
      const sv = serverVisit(v, listed);
      const photos = (sv && sv.photos) || [];
      const key = String(v.id);
      const li = document.createElement('li');
      li.className = 'visit-card' + (photos.length ? ' has-photo' : '');
      li.dataset.kind = v.kind || '';
      if (photos.length) li.style.backgroundImage = `linear-gradient(rgba(0,0,0,0.25), rgba(0,0,0,0.8)), url("/api/photos/${photos[0].id}/thumb")`;

      if (v.note) {
        const memo = document.createElement('p');
        memo.className = 'visit-memo';
        memo.translate = false;
        memo.textContent = v.note;
        li.appendChild(memo);
      } else if (!config.readOnly) {
        li.appendChild(button(t('addMemo'), 'add-memo', () => { open.add(key); actions.refresh(); }));
      }
      const meta = document.createElement('p');
      meta.className = 'visit-meta';
      meta.textContent = [v.date || t('dayUnknown'), v.kind ? t(v.kind) : ''].filter(Boolean).join(t('gap'))
        + (photos.length ? t('gap') + t('photoCount', photos.length) : '');
      li.appendChild(meta);
      if (!config.readOnly) li.appendChild(button(t('delete'), 'delete-visit', () => actions.removeVisit(v)));
      li.onclick = () => { if (open.has(key)) open.delete(key); else open.add(key); actions.refresh(); };
      if (open.has(key)) li.appendChild(detail(v, sv, photos, actions));
      ul.appendChild(li);
    }
  }

  // The visit's detail: the whole memo (editable), the photos, 写真を追加.
  function detail(v, sv, photos, actions) {
    const box = document.createElement('div');
    box.className = 'visit-detail';
    box.onclick = (e) => e.stopPropagation();
    const memo = document.createElement('p');
    memo.className = 'visit-memo-full';
    memo.translate = false;
    memo.textContent = v.note || '';
    if (v.note) box.appendChild(memo);
    if (!config.readOnly) {
      const edit = document.createElement('textarea');
      edit.className = 'memo-edit';
      edit.rows = 4;
      edit.value = v.note || '';
      edit.placeholder = t('memo');
      box.appendChild(edit);
      box.appendChild(button(t('saveMemo'), 'save-memo', () => actions.setNote(v, edit.value.trim() || null)));
    }
    const strip = document.createElement('div');
    strip.className = 'visit-photos';
    for (const p of photos) {
      const fig = document.createElement('figure');
      const a = document.createElement('a');
      a.href = `/api/photos/${p.id}`;
      a.target = '_blank';
      a.rel = 'noopener';
      const img = document.createElement('img');
      img.src = `/api/photos/${p.id}/thumb`;
      img.alt = '';
      img.dataset.photo = p.id;
      a.appendChild(img);
      fig.appendChild(a);
      if (!config.readOnly) {
        fig.appendChild(button(t('removePhoto'), 'remove-photo', () => change(() => send('DELETE', `/api/photos/${p.id}`), actions)));
      }
      strip.appendChild(fig);
    }
    box.appendChild(strip);
    if (!config.readOnly) {
      if (sv) {
        const label = document.createElement('label');
        label.className = 'add-photo';
        label.textContent = t('addPhoto');
        const input = document.createElement('input');
        input.type = 'file';
        input.accept = 'image/*';
        input.className = 'photo-input';
        input.onchange = () => {
          const file = input.files && input.files[0];
          if (!file) return;
          change(() => send('POST', `/api/visits/${sv.id}/photos`, file, file.type && file.type.startsWith('image/') ? file.type : 'image/jpeg'), actions);
        };
        label.appendChild(input);
        box.appendChild(label);
      } else {
        const wait = document.createElement('p');
        wait.className = 'photo-wait';
        wait.textContent = t('photoAfterSync');
        box.appendChild(wait);
      }
    }
    return box;
  }

  async function change(request, actions) {
    setBusy(true);
    try {
      await request();
      await actions.refresh();
    } catch (e) {
      $('record-error').textContent = e.message;
      $('record-error').hidden = false;
    } finally {
      setBusy(false);
    }
  }

  window.eki.addStrings({
    ja: { addMemo: 'メモを追加', memo: 'メモ', saveMemo: 'メモを保存', addPhoto: '写真を追加', removePhoto: '写真を削除',
      photoCount: '写真 {0} 枚', photoAfterSync: '写真は記録が送られてから追加できます' },
    en: { addMemo: 'Add a memo', memo: 'Memo', saveMemo: 'Save the memo', addPhoto: 'Add a photo', removePhoto: 'Remove photo',
      photoCount: '{0} photo(s)', photoAfterSync: 'photos can be added once the visit is synced' },
  });

  return { render };
})();
