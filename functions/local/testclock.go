//go:build testclock

package main

import (
	"os"
	"strconv"
	"sync/atomic"
	"syscall"

	"tessera/functions/testclock"
)

// A test build (go build -tags testclock): the server's clock is one that
// POST /api/__test/clock moves forward (package testclock). Never in a release.
//
// With TESSERA_TEST_KILL_AT_END=n, the test build also kills itself with
// SIGKILL at the n-th match end it saves, between that save and the
// match's settling (game.Config.AfterEnd): the crash a test proves loses
// nothing (shutdown_test.go).
//
// With TESSERA_TEST_SEED=n, game ids, seat tokens and deals come from a
// fixed stream (testclock.Seeded): the browser tests' deals repeat.
func init() {
	testClock, testClockPath = &testclock.Clock{}, testclock.Path
	testHooks.Rand = testclock.FromEnv(os.Getenv)
	if n, err := strconv.Atoi(os.Getenv("TESSERA_TEST_KILL_AT_END")); err == nil && n > 0 {
		var ends atomic.Int64
		testHooks.AfterEnd = func(string) {
			if ends.Add(1) == int64(n) {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // the signal arrives; nothing after the save runs
			}
		}
	}
}
