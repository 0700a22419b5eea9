// rulespage.js: the /rules page. Both languages' rules are in the HTML, an
// article each; this shows the one of the page's language and offers the
// switch. The rule sets shown are those the server offers (config.js).

import { ORDER } from './config.js';
import { loadLang, langSwitch, onLangChange, currentLang } from './i18n.js';

function show() {
  for (const a of document.querySelectorAll('article[data-lang]')) {
    a.hidden = a.dataset.lang !== currentLang();
    for (const s of a.querySelectorAll('section[data-variant]')) s.hidden = !ORDER.includes(s.dataset.variant);
  }
}

langSwitch(document.querySelector('#lang'));
onLangChange(show); // also when the words are loaded
loadLang(undefined, 'rules').catch(() => show());
