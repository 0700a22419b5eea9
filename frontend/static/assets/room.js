// room.js: the room, one page for four paths, each its own module.
// /room: the open tables, the tournaments, the leaderboards and the forms
// (room-lobby.js); /p/{id}: a player's profile (room-profile.js);
// /l/{id}: a league (room-league.js); /t/{id}: a tournament
// (room-tour.js). What they share is in room-common.js.

import { loadLang, langSwitch, onLangChange } from './i18n.js';
import { $, drawMissing } from './room-common.js';
import { startLobby, drawLobby } from './room-lobby.js';
import { startProfile, drawProfile } from './room-profile.js';
import { startLeague, drawLeague } from './room-league.js';
import { startTour, drawTour } from './room-tour.js';

export { playerLink } from './room-common.js';
export { chart, badge } from './room-profile.js';
export { leagueLink } from './room-league.js';

/** PAGES: each path's page: its start (with the id in the path) and its drawing in the words now in. */
const PAGES = [
  { path: /^\/p\/([^/]+)$/, start: startProfile, draw: drawProfile },
  { path: /^\/l\/([^/]+)$/, start: startLeague, draw: drawLeague },
  { path: /^\/t\/([^/]+)$/, start: startTour, draw: drawTour },
  { path: /.*/, start: startLobby, draw: drawLobby },
];

function start() {
  let id;
  const page = PAGES.find((p) => { const m = p.path.exec(location.pathname); id = m && m[1]; return m; });
  const draw = () => { drawMissing(); page.draw(); };
  langSwitch($('#lang'));
  onLangChange(draw);
  page.start(id);
  loadLang(undefined, 'room').catch(() => draw());
}

if (typeof document !== 'undefined' && document.querySelector('#lobby')) start();
