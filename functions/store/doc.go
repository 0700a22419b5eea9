// Package store keeps versioned blobs: one item per game, holding an opaque
// state, a version that starts at 1 and grows by one on every save, and the
// time of the last write. It knows nothing of dominoes.
//
// Writers use optimistic locking: Load returns the version, and Save writes
// only if the stored version is still the one the caller loaded. A lost race
// is ErrConflict; nothing is half-written.
//
// This package is only the contract: Item, the Store interface its consumer
// (package api) calls, the sentinel errors and the few helpers every
// adapter shares. Each adapter is a package of its own, so that a binary
// links only the one it uses: memory (tests), bolt (an embedded bbolt file,
// the default of the local server) and dynamo (AWS DynamoDB). Each writes
// its version check in exactly one place. Every adapter maps transient
// failures (deadlines, throttling, an unreachable server) to ErrUnavailable,
// wrapping the cause as well, so errors.Is works for both.
//
// The contract every adapter must meet is the test suite in package
// storetest, which also offers Faulty, a wrapper that injects failures for
// the tests of other packages.
package store
