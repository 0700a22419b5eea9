// Package workerapp is the Go side of the Cloudflare Worker: it builds the
// API on the D1 store from the Worker's env and publishes, at
// globalThis.tessera, the functions the JS shim (infra/workers/shim.mjs)
// calls: serve (one API request), page (how a page path is answered from
// the static assets) and scheduled (the Cron Trigger's clock sweep and
// expiry). It builds only for GOOS=js GOARCH=wasm; docs/workers.md has the
// design.
package workerapp
