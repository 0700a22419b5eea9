//go:build race

package api

// raceEnabled: the race detector slows the long property tests about tenfold,
// so they play fewer matches under it: they are sequential (one client, one
// game at a time), and make test-go plays every one of them without it.
const raceEnabled = true
