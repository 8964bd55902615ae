// The login page: POST /api/login with {"user", "password"} as JSON; on 200 the session cookie is
// set and the map opens (/). 401: a wrong pair (the same answer for an unknown user); 429: too many
// tries, again after Retry-After seconds. Words from i18n.js (ja, or en when the browser prefers it).
'use strict';

(() => {
  const { t, addStrings, applyI18n } = window.eki;
  addStrings({
    ja: {
      'login.title': '降りつぶし', 'login.user': 'ユーザー名', 'login.password': 'パスワード', 'login.submit': 'ログイン',
      'login.bad': 'ユーザー名かパスワードが違います', 'login.limited': '試行が多すぎます。{0} 秒後にもう一度どうぞ',
      'login.limitedNow': '試行が多すぎます。しばらくしてからもう一度どうぞ', 'login.offline': 'サーバーに接続できません（オフライン）',
      'login.failed': 'ログインできません：{0}', 'login.pageTitle': 'ログイン — 降りつぶし',
    },
    en: {
      'login.title': 'Oritsubushi', 'login.user': 'User name', 'login.password': 'Password', 'login.submit': 'Log in',
      'login.bad': 'Wrong user name or password', 'login.limited': 'Too many tries: try again in {0} s',
      'login.limitedNow': 'Too many tries: try again later', 'login.offline': 'The server cannot be reached (offline)',
      'login.failed': 'Cannot log in: {0}', 'login.pageTitle': 'Log in — Oritsubushi',
    },
  });
  applyI18n(document);
  document.title = t('login.pageTitle');

  const form = document.getElementById('login'), error = document.getElementById('login-error');
  const button = document.getElementById('login-submit');
  function show(text) { error.textContent = text; error.hidden = !text; }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    show('');
    button.disabled = true;
    try {
      const r = await fetch('/api/login', {
        method: 'POST', credentials: 'same-origin', cache: 'no-store',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ user: document.getElementById('user').value, password: document.getElementById('password').value }),
      });
      const answer = await r.json().catch(() => ({}));
      if (r.ok) { location.replace('/'); return; }
      if (r.status === 401) show(t('login.bad'));
      else if (r.status === 429) {
        const after = parseInt(r.headers.get('Retry-After') || '', 10);
        show(Number.isFinite(after) ? t('login.limited', after) : t('login.limitedNow'));
      } else show(t('login.failed', answer.message || `HTTP ${r.status}`));
    } catch (err) {
      show(t('login.offline'));
    } finally {
      button.disabled = false;
    }
  });
  document.getElementById('user').focus();
})();
