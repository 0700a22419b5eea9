package game

import "tessera/functions/store"

// Store is what the services are built over (package store's interface):
// a deployment's main hands it to the API, which builds the game service
// and the community on it and reads nothing from it itself.
type Store = store.Store

// The store's errors as the services' callers meet them (the API maps
// them to API.md's codes without importing the store).
var (
	ErrNotFound     = store.ErrNotFound
	ErrConflict     = store.ErrConflict
	ErrUnavailable  = store.ErrUnavailable
	ErrCorruptStore = store.ErrCorrupt
)
