// Package layers holds only a test: it reads the import graph with
// `go list -deps` and checks the arrows docs/layers.md draws, so that a
// binary links only what it uses.
package layers
