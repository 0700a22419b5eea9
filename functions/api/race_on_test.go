//go:build race

package api

// raceEnabled: the race detector slows the long property tests about tenfold,
// so they play fewer matches under it.
const raceEnabled = true
