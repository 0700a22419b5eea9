package testenv

import (
	"io"
	"math/rand/v2"
	"sync"
	"time"
)

// Seeded is a deterministic source of secrets (game ids, tokens, seeds)
// for a service under test, safe for concurrent requests: ChaCha8 keyed
// by seed's bytes, least significant first.
func Seeded(seed uint64) io.Reader {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	return &lockedReader{r: rand.NewChaCha8(s)}
}

type lockedReader struct {
	mu sync.Mutex
	r  *rand.ChaCha8
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

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
