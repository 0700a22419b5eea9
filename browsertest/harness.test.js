// harness.test.js: the harness never tests against a server that is not
// the one it started (attack kit: a test server that failed to bind its
// port talked to whatever held it).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const http = require('node:http');
const h = require('./harness.js');

test('a local server that cannot bind its port fails the start, even when another server answers there', async () => {
  const other = http.createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end('<h1>not Tessera</h1>'); });
  await new Promise((r) => other.listen(0, '127.0.0.1', r));
  const port = other.address().port;
  try {
    await assert.rejects(h.startServer({}, { port }), /exited|did not answer/);
  } finally {
    other.close();
  }
  // And a free port still starts (the check is not a refusal of all).
  const s = await h.startServer();
  try {
    const r = await fetch(s.url + '/api/push');
    assert.ok(r.status === 200 || r.status === 404, `GET /api/push: ${r.status}`);
  } finally {
    await s.stop();
  }
});
