// boot.js: the game page's first step. It runs as soon as it has arrived
// (async), before the page's other modules, and starts the game's first
// GET with the seat this device holds, so the view is on its way while
// app.js and its modules load (docs/frontend.md, "Loading"). app.js's
// first poll takes that answer.

import { getGame, takeFragment } from './mygames.js';
import { prefetchGame } from './api.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
if (id) {
  takeFragment(id);
  const saved = getGame(id);
  prefetchGame(id, saved ? saved.token : null);
}
