// pushsync.js: the start page's check that this device's push subscription
// was made for the server's current VAPID key (docs/expiry.md). Not on the
// game page's critical path.

import { pushKey } from './api.js';
import { pushState, registerWorker, read, write, keyBytes } from './player.js';
import { enablePush } from './pushctl.js';

const CHECKED = 'tessera.pushChecked'; // the day syncPush last compared keys

/**
 * syncPush: once a day with push on, a subscription made for another server
 * key (the key pair changed: its pushes are refused) is made again for the
 * current one (docs/expiry.md).
 */
export async function syncPush() {
  const day = String(Math.floor(Date.now() / 864e5));
  if (pushState() !== 'on' || read(CHECKED) === day) return;
  const vapid = await pushKey();
  const reg = await registerWorker();
  if (!vapid || !reg) return; // asked again on the next load
  const sub = await reg.pushManager.getSubscription();
  const have = new Uint8Array((sub && sub.options.applicationServerKey) || []), want = keyBytes(vapid);
  if (!sub || have.length !== want.length || have.some((b, i) => b !== want[i])) {
    if (sub) await sub.unsubscribe();
    await enablePush();
  }
  write(CHECKED, day);
}
