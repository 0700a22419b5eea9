// Package push sends Web Push messages (RFC 8030) with the payload
// encrypted as RFC 8291 (aes128gcm) and the sender identified by VAPID
// (RFC 8292), on the standard library's crypto/ecdh, crypto/hkdf,
// crypto/ecdsa and crypto/aes (docs/push.md says why not a library). It
// knows nothing of games: it takes a subscription and bytes.
//
// The HTTP client it sends with refuses to connect to loopback, private,
// link-local and unique-local addresses (checked on the address actually
// dialled, so a name that resolves to one is refused too) unless the
// operator allows insecure endpoints for tests.
package push
