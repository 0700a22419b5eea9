package testenv

import (
	"io"
	"sync"
	"time"

	"tessera/functions/testclock"
)

// Seeded is a deterministic source of secrets (game ids, tokens, seeds)
// for a service under test, safe for concurrent requests: the test
// builds' fixed stream (testclock.Seeded), so a service test and a
// browser test with the same seed draw the same bytes.
func Seeded(seed uint64) io.Reader { return testclock.Seeded(seed) }

// Clock is a clock the test sets, safe for concurrent use. With Tick,
// every reading is Tick later than the one before (every write at its
// own time).
type Clock struct {
	mu   sync.Mutex
	T    time.Time
	Tick time.Duration
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.T = c.T.Add(c.Tick)
	return c.T
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.T = c.T.Add(d)
}
