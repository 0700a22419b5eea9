package testclock

import (
	"io"
	"math/rand/v2"
	"strconv"
	"sync"
)

// SeedEnv names the environment variable that makes a test build's random
// source a fixed stream: with TESSERA_TEST_SEED=n, the n-th stream gives
// every game id, seat token and deal seed, so a browser test that creates
// its games in the same order gets the same deals on every run (issue 42:
// no browser test hopes for a deal). Unset, the server keeps crypto/rand.
const SeedEnv = "TESSERA_TEST_SEED"

// Seeded is a reader of the seed-th fixed stream (ChaCha8 keyed by seed's
// bytes, least significant first), safe for concurrent use. Its bytes
// are predictable: for tests and test builds only (internal/testenv's
// Seeded is this one).
func Seeded(seed uint64) io.Reader {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	return &seeded{c: rand.NewChaCha8(s)}
}

// FromEnv is Seeded(n) when getenv(SeedEnv) is a number n, else nil.
func FromEnv(getenv func(string) string) io.Reader {
	n, err := strconv.ParseUint(getenv(SeedEnv), 10, 64)
	if err != nil {
		return nil
	}
	return Seeded(n)
}

type seeded struct {
	mu sync.Mutex
	c  *rand.ChaCha8
}

func (s *seeded) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c.Read(p)
}
