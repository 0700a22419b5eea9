// Package d1 is the store.Store of the Cloudflare Worker: one row per game
// in a D1 (SQLite) table, reached through the Worker's D1 binding from Go
// compiled to js/wasm (syscall/js). It builds only for GOOS=js
// GOARCH=wasm; this file is all other platforms see.
//
// The table is infra/workers/migrations/0001_games.sql. A create is an
// INSERT ... ON CONFLICT DO NOTHING, a save an UPDATE ... WHERE id = ? AND
// version = ?, whose meta.changes (0 or 1) is the condition: SQLite runs
// each statement atomically, so of several writers holding one version
// exactly one changes the row. Times are kept as whole seconds and
// nanoseconds in two integer columns, each well inside a JS number's 53
// bits (a Unix time in nanoseconds is not). Expiry: expires_at is the last
// write plus store.TTL, and Expire (the Worker's Cron Trigger) deletes
// what is past it. docs/workers.md has the design.
package d1
