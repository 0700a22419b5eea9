//go:build js && wasm && testclock

package workerapp

import (
	"context"
	"net/http"

	"tessera/functions/testclock"
)

// A test build only (make worker-build WORKER_TAGS=testclock): the
// Worker's clock is one that POST /api/__test/clock moves forward, and that
// request runs the Cron Trigger's sweep before it answers (package
// testclock). functions/workertest and the browser tests use it so that no
// test waits a real minute for a move clock.
//
// With the var TESSERA_TEST_SEED=n, game ids, tokens and deals come from a
// fixed stream (testclock.Seeded), as on the local server's test build.
func init() {
	testRand = testclock.FromEnv
	c := &testclock.Clock{}
	now = c.Now
	prev := wrapWithSweep
	wrapWithSweep = func(h http.Handler, sweep func(ctx context.Context) (int, error)) http.Handler {
		h = prev(h, sweep)
		mux := http.NewServeMux()
		mux.Handle("POST "+testclock.Path, c.Handler(sweep))
		mux.Handle("/", h)
		return mux
	}
}
