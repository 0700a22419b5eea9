// share.js: a link offered to the phone's share sheet, or copied (the
// game's invite, a league's invite).

import { t } from './i18n.js';

// share offers the invite link to the phone's share sheet (or copies it);
// the private link is a secret and is only ever copied (private: true).
export async function share(url, title, button, { private: secret = false } = {}) {
  const old = button.textContent;
  try {
    if (navigator.share && !secret) { await navigator.share({ title, url }); return; }
    await navigator.clipboard.writeText(url);
    button.textContent = t('share.copied');
  } catch (e) {
    if (e && e.name === 'AbortError') return;
    button.textContent = t('share.selectAbove');
  }
  setTimeout(() => { button.textContent = old; }, 2500);
}
