//go:build race

package api

// raceEnabled: the race detector slows the long property tests about tenfold,
// so they play fewer matches under it: they are sequential (one client, one
// game at a time). make test runs this package once, under the race
// detector; `go test ./functions/api` plays every match.
const raceEnabled = true
