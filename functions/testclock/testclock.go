// Package testclock is a clock that tests move forward, for the servers the
// browser and Worker tests start: a deadline a minute away passes at once
// instead of after a real minute. Only files with the testclock build tag
// use it (functions/local/testclock.go, functions/workerapp/testclock.go),
// so no production binary links it (internal/layers checks).
package testclock

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// Path is where a test build answers (under /api/, which every
// deployment routes to the Go program).
const Path = "/api/__test/clock"

// Clock is the real clock plus an offset that only grows.
type Clock struct {
	mu     sync.Mutex
	offset time.Duration
}

// Now is the real time plus the offset.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Advance moves the clock on by d (d <= 0 does nothing).
func (c *Clock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// Handler answers POST Path with {"advance": seconds}: it moves the clock
// on, then calls after (the deployment's sweep, so what fell due is done
// before the answer), and answers 200 {"now": RFC 3339, "swept": n}.
func (c *Clock) Handler(after func(ctx context.Context) (int, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			Advance float64 `json:"advance"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&req); err != nil || req.Advance < 0 {
			http.Error(w, `want {"advance": seconds}`, http.StatusBadRequest)
			return
		}
		c.Advance(time.Duration(req.Advance * float64(time.Second)))
		n := 0
		if after != nil {
			var err error
			if n, err = after(r.Context()); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"now": c.Now().UTC().Format(time.RFC3339), "swept": n})
	})
}
