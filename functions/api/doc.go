// Package api is Tessera's HTTP API (shared/API.md) as one net/http Handler
// over the services (the game service and the community, built over the
// store it is given; it reads nothing from the store itself and imports
// no store package). Every deployment serves it: the
// Lambda functions through the API Gateway adapter, the local server
// directly.
//
// A request goes through the same steps whatever its endpoint: the route
// (404, or 405 with Allow, by the path's pattern alone), the body (413 over
// 16 KiB, 400 for anything else wrong, decoded strictly by a token-level
// validator), the game (404), the seat token (401), then the rules. Errors
// from the engine and the store are sentinels, mapped to status codes in one
// place (errors.go). A request that fails changes nothing.
//
// The stored game (stored.go) is the engine's encoding with what the API
// keeps per seat beside it: the hash of the seat's token, and its last
// applied moveIds, so that retried moves are answered without being applied
// twice. Seat tokens never leave the
// server after they are handed out: only a truncated SHA-256 of each is kept,
// compared in constant time.
package api
