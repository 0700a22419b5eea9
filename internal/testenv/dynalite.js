// dynalite.js runs dynalite as its own cli.js does (the same flags), with
// one difference: a request its client abandons halfway (the connection
// closed before the body was read: an SDK attempt that timed out on a
// loaded machine) ends that request, not the server. dynalite 4.0.0
// throws a request's 'error' from its handler (index.js: req.on('error',
// function (err) { throw err })), which ended the process, and every test
// after it in the package failed with "connection refused" (CI beside two
// busy CPU loops, functions/api's TestSweepAndRaces). Any other uncaught
// error still ends it, as before. Started by dynalite.go.
'use strict';
const path = require('node:path');

process.on('uncaughtException', (err) => {
  if (err && err.code === 'ECONNRESET' && err.message === 'aborted') {
    console.error(`dynalite: a client hung up before its request was read (${err.message}); serving on`);
    return;
  }
  console.error(err);
  process.exit(1);
});

require(path.join(__dirname, '..', '..', 'node_modules', 'dynalite', 'cli.js'));
