// pushctl.js: notify.js over this page's modules, for the pages that
// bundle it (the start page, pushsync.js); the game page loads notify.js
// as a chunk and hands it the same (app.js).

import { pushKey, putDevice, deleteDevice } from './api.js';
import { t, currentLang, onLangChange } from './i18n.js';
import { playerKey, read, write, PUSH, pushState, registerWorker, keyBytes } from './player.js';
import { make } from './notify.js';

export const { enablePush, disablePush, pushLanguage, notifyControl } = make({
  t, currentLang, onLangChange, pushKey, putDevice, deleteDevice, playerKey, read, write, PUSH, pushState, registerWorker, keyBytes,
});
