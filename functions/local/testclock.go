//go:build testclock

package main

import "tessera/functions/testclock"

// A test build (go build -tags testclock): the server's clock is one that
// POST /api/__test/clock moves forward (package testclock). Never in a release.
func init() { testClock, testClockPath = &testclock.Clock{}, testclock.Path }
