// Package memory is the in-process store.Store, for tests and examples: a
// map behind a mutex, copying bytes in and out.
package memory
