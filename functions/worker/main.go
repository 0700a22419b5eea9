//go:build js && wasm

// Command worker is the Cloudflare Worker's Go module (GOOS=js GOARCH=wasm):
// the API on D1, started by infra/workers/shim.mjs. See docs/workers.md.
package main

import "tessera/functions/workerapp"

func main() { workerapp.Run() }
