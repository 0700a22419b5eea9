// notify.js: "Notify me" (the game page's and the start page's): asking
// the browser's permission, subscribing, registering the device for the
// player key, following a switch of language, and turning it off. A chunk
// of the game page (issue 44: its first load keeps 3 KB of room), asked
// for once the table is drawn; the start page bundles it (pushctl.js).

/**
 * make returns {enablePush, disablePush, pushLanguage, notifyControl} over
 * what the page hands it: a chunk imports nothing, or the game page's
 * first load would grow by a shared chunk (build.mjs).
 */
export function make({ t, currentLang, onLangChange, pushKey, putDevice, deleteDevice, playerKey, read, write, PUSH, pushState, registerWorker, keyBytes }) {
  /** enablePush asks permission (call it from a click), subscribes and registers; returns the new state. */
  async function enablePush() {
    if (pushState() === 'unsupported' || pushState() === 'install') return pushState();
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return pushState();
    // From the permission on, at most PUSH_WAIT: a browser whose push
    // service does not answer (no network to it, a blocked service) would
    // otherwise leave the button waiting for ever (issue 26).
    let timer;
    const late = new Promise((_, no) => { timer = setTimeout(() => no(new Error('slow')), PUSH_WAIT); });
    try {
      return await Promise.race([late, (async () => {
        const vapid = await pushKey();
        if (!vapid) return 'unsupported';
        const reg = (await registerWorker()) && (await navigator.serviceWorker.ready);
        if (!reg) return 'unsupported';
        let sub = await reg.pushManager.getSubscription();
        if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapid) });
        const json = typeof sub.toJSON === 'function' ? sub.toJSON() : sub;
        await putDevice(playerKey(), { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: json.keys, lang: currentLang() });
        write(PUSH, json.endpoint);
        return 'on';
      })()]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** PUSH_WAIT is how long "Notify me" waits for the push service. */
  const PUSH_WAIT = 10000;

  /**
   * pushLanguage registers this device again in the page's language when
   * push is on, so that its push texts follow a switch of language.
   */
  async function pushLanguage() {
    if (pushState() !== 'on') return;
    const reg = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration('/') : null;
    const sub = reg && reg.pushManager ? await reg.pushManager.getSubscription() : null;
    if (!sub) return;
    const json = typeof sub.toJSON === 'function' ? sub.toJSON() : sub;
    await putDevice(playerKey(), { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: json.keys, lang: currentLang() });
  }

  /** disablePush forgets this device on the server and unsubscribes. */
  async function disablePush() {
    const endpoint = read(PUSH);
    write(PUSH, null);
    if (endpoint) await deleteDevice(playerKey(), endpoint).catch(() => {});
    const reg = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration('/') : null;
    const sub = reg && reg.pushManager ? await reg.pushManager.getSubscription() : null;
    if (sub) await sub.unsubscribe().catch(() => {});
    return pushState();
  }

  /** pushText is what the page says of each state (push.on, push.off, ...). */
  const pushText = (state) => t('push.' + state);

  /**
   * notifyControl fills box with the "Notify me" control: a button that turns
   * push on (asking permission only on this click) or off, and a line that
   * says the state.
   */
  // email (the game page): where push cannot be turned on, a link to the start
  // page's email digest (docs/email.md), push's other way to reach them.
  function notifyControl(box, email) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'link notify';
    const text = document.createElement('p');
    text.className = 'muted notify-state';
    let state = pushState();
    const paint = () => {
      box.dataset.state = state;
      text.textContent = pushText(state);
      text.title = pushText(state); // whole where a phone held sideways cuts it to one line
      button.hidden = state !== 'on' && state !== 'off';
      button.textContent = t(state === 'on' ? 'push.turnOff' : 'push.turnOn');
      if (mail) { mail.hidden = !button.hidden; mail.textContent = t('push.emailInstead'); } // push cannot be turned on here
    };
    const mail = email ? Object.assign(document.createElement('a'), { href: '/#email-box', className: 'notify-email' }) : null;
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        state = state === 'on' ? await disablePush() : await enablePush();
        paint();
      } catch (e) {
        paint();
        text.textContent = t(e && e.message === 'slow' ? 'push.slow' : 'push.failed');
      }
      button.disabled = false;
    });
    box.replaceChildren(button, text, ...(mail ? [mail] : []));
    paint();
    onLangChange((lang, switched) => { paint(); if (switched) pushLanguage().catch(() => {}); });
    registerWorker();
  }

  return { enablePush, disablePush, pushLanguage, notifyControl };
}
