// Package jsutil holds what Go code on js/wasm (the Cloudflare Worker)
// needs to wait for JavaScript: Await, for a Promise. It builds only for
// GOOS=js GOARCH=wasm.
package jsutil
