// Package workertest tests the Cloudflare Worker as it runs: the Go module
// built for js/wasm (make worker-build), under workerd through miniflare
// (infra/workers/serve.mjs), with a local D1. It has only tests.
package workertest
