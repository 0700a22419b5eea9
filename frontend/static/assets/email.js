// email.js: the email digest on the start page (issue 46, docs/email.md):
// the address's settings, and the landing of the confirmation and
// unsubscribe links (/?confirm=TOKEN, /?unsubscribe=TOKEN). A chunk: it
// imports nothing (build.mjs); its words are the start page's second
// catalog part (email.*), fetched with it.

/**
 * make returns {draw, land, redraw} over what the page hands it: draw(box,
 * email, pushState) shows the settings for GET /api/me's email (null:
 * none); land(box, params) follows a link from a mail and says what it
 * did; refresh is the page's own reading of /api/me, which draws again.
 */
export function make({ t, playerKey, loadLater, refresh }) {
  // note is a key of the words (and its arguments): drawn in the page's
  // language whenever it draws, so a switch (or the words coming late)
  // redraws it too.
  let box = null, email = null, push = '', note = '', busy = false;
  const later = loadLater().catch(() => {});

  async function call(method, path, body, key) {
    const headers = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (key) headers.Authorization = 'Bearer ' + key;
    const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (r.ok) return r.status;
    let code = '';
    try { code = (await r.json()).error.code; } catch (e) { /* not JSON */ }
    throw Object.assign(new Error(code || String(r.status)), { code });
  }
  const reasons = { email_off: 'email.off', rate_limited: 'email.tooMany', bad_request: 'email.bad', not_found: 'email.badLink' };
  const errKey = (e) => reasons[e.code] || 'email.failed';

  function el(tag, props, ...kids) {
    const n = Object.assign(document.createElement(tag), props);
    n.append(...kids);
    return n;
  }
  function button(text, f) {
    const b = el('button', { type: 'button', textContent: text });
    b.addEventListener('click', () => act(f));
    return b;
  }
  async function act(f) {
    if (busy) return;
    busy = true;
    try { note = await f(); } catch (e) { note = errKey(e); }
    busy = false;
    render();
    refresh(); // the page reads /api/me and draws what changed
  }

  function render() {
    if (!box) return;
    const kids = [el('h3', { id: 'email-h', textContent: t('email.title') })];
    if (!email) {
      kids.push(el('p', { className: 'muted hint', textContent: t(push === 'install' ? 'email.explainIphone' : 'email.explain') }));
      const input = el('input', { type: 'email', id: 'email-addr', autocomplete: 'email', maxLength: 254, required: true });
      const form = el('form', { className: 'email-form' }, el('label', {}, el('span', { textContent: t('email.address') }), ' ', input),
        el('button', { type: 'submit', textContent: t('email.send') }));
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        act(async () => {
          await call('PUT', '/api/me/email', { email: input.value.trim(), lang: document.documentElement.lang === 'it' ? 'it' : 'en' }, playerKey());
          return 'email.sent';
        });
      });
      kids.push(form);
    } else {
      const a = email.address;
      kids.push(el('p', { textContent: !email.confirmed ? t('email.pending', { address: a }) : email.digest ? t('email.on', { address: a }) : t('email.offState', { address: a }) }));
      if (email.confirmed) {
        kids.push(button(t(email.digest ? 'email.turnOff' : 'email.turnOn'), async () => {
          await call('PUT', '/api/me/email', { digest: !email.digest }, playerKey());
          email = { ...email, digest: !email.digest };
          return '';
        }));
      }
      kids.push(' ', button(t('email.remove'), async () => { await call('DELETE', '/api/me/email', undefined, playerKey()); email = null; return 'email.removed'; }));
    }
    kids.push(el('p', { className: 'note', role: 'status', id: 'email-note', textContent: note ? t(note) : '' }));
    box.replaceChildren(...kids);
    box.setAttribute('aria-labelledby', 'email-h');
    const shown = !box.hidden;
    box.hidden = false;
    // The game page's link (/#email-box) comes here: the box was hidden
    // when the browser looked for it.
    if (!shown && location.hash === '#email-box') box.scrollIntoView();
  }

  return {
    /** draw shows the settings in b for GET /api/me's email, on a device in pushState p. */
    async draw(b, e, p) {
      box = b;
      email = e;
      push = p;
      await later;
      render();
    },
    /** land follows a mail's link (confirm or unsubscribe) and says what it did in b. */
    async land(b, params) {
      box = b;
      await later;
      const confirm = params.get('confirm'), unsub = params.get('unsubscribe');
      try {
        if (confirm) {
          await call('POST', '/api/me/email/confirm', { token: confirm });
          note = 'email.confirmed';
        } else if (unsub) {
          await call('POST', '/api/me/email/unsubscribe?token=' + encodeURIComponent(unsub));
          note = 'email.unsubscribed';
        }
      } catch (e) {
        note = errKey(e);
      }
      render();
      refresh();
    },
    redraw: render,
  };
}
