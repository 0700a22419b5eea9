package api

import (
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"
)

// RateLimit is the per-address limit of API.md's 429 (docs/ratelimit.md).
// Every address has three token buckets:
//
//   - requests: PerSecond a second, a burst of 5*PerSecond; every request
//     under /api/ takes one;
//   - creates: PerSecond/40 a second (30 a minute at 20), a burst of 10;
//     creating a game, starting a rematch, and PUT /api/me/push and
//     /api/me/profile (each may make a player record) take one;
//   - thinking: PerSecond/4 hard computer decisions a second, a burst of
//     30; a request is charged the hard decisions it made after it is
//     answered, and a request that may make computer players move (create,
//     seats, moves, rematch) is refused while the address is in debt.
//
// A refused request changes nothing and is answered 429 rate_limited with
// Retry-After, before anything else is checked.
type RateLimit struct {
	PerSecond float64
	// Addr is the client's address; nil: the host of r.RemoteAddr. A
	// deployment behind a proxy it trusts sets it.
	Addr func(r *http.Request) string
	// Now is the limiter's clock; nil: time.Now.
	Now func() time.Time
}

// maxAddrs bounds the addresses the limiter remembers; past it, a new
// address takes the place of one picked at random (whose next request
// starts from full buckets again): so a flood from many addresses can
// neither grow the map nor refuse an innocent new address's first request
// (attack kit D9), where a shared overflow bucket, drained by the flood,
// refused it.
const maxAddrs = 100_000

// limiter holds the buckets of every address seen lately.
type limiter struct {
	cfg   RateLimit
	mu    sync.Mutex
	addrs map[string]*buckets
	swept time.Time
}

// buckets are one address's three.
type buckets struct {
	requests, creates, thinking bucket
	seen                        time.Time
}

// bucket is a token bucket: tokens at time at, refilled at rate up to burst.
// Its tokens go below zero only by charges made after the fact (thinking).
type bucket struct {
	tokens float64
	at     time.Time
}

// kind is the bucket a limit applies to.
type kind int

const (
	kRequests kind = iota
	kCreates
	kThinking
)

func (l *limiter) rate(k kind) (perSecond, burst float64) {
	r := l.cfg.PerSecond
	switch k {
	case kCreates:
		return r / 40, 10
	case kThinking:
		return r / 4, 30
	}
	return r, 5 * r
}

func newLimiter(cfg RateLimit) *limiter {
	if cfg.PerSecond <= 0 {
		return nil
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Addr == nil {
		cfg.Addr = remoteHost
	}
	return &limiter{cfg: cfg, addrs: make(map[string]*buckets)}
}

// remoteHost is r.RemoteAddr's host, an IPv6 address cut to its /64 (one
// subscriber's usual allocation).
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return addrKey(host)
}

// addrKey is the limiter's key for an address.
func addrKey(host string) string {
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// refill brings b up to now.
func (b *bucket) refill(now time.Time, perSecond, burst float64) {
	if b.at.IsZero() {
		b.tokens, b.at = burst, now
		return
	}
	if dt := now.Sub(b.at).Seconds(); dt > 0 {
		b.tokens = min(burst, b.tokens+dt*perSecond)
		b.at = now
	}
}

// wait is how long until b holds need tokens.
func (b *bucket) wait(need, perSecond float64) time.Duration {
	if b.tokens >= need {
		return 0
	}
	return time.Duration((need - b.tokens) / perSecond * float64(time.Second))
}

// get returns the buckets of addr, creating them; the caller holds l.mu.
func (l *limiter) get(addr string, now time.Time) *buckets {
	if now.Sub(l.swept) > time.Minute {
		l.sweep(now)
	}
	b := l.addrs[addr]
	if b == nil {
		if len(l.addrs) >= maxAddrs {
			for other := range l.addrs { // Go's map order: one at random
				delete(l.addrs, other)
				break
			}
		}
		b = &buckets{}
		l.addrs[addr] = b
	}
	b.seen = now
	return b
}

// sweep forgets the addresses whose buckets are full again: a new set of
// buckets is the same.
func (l *limiter) sweep(now time.Time) {
	l.swept = now
	for addr, b := range l.addrs {
		if now.Sub(b.seen) > l.refillTime() {
			delete(l.addrs, addr)
		}
	}
}

// refillTime is the longest an empty (or fully charged) bucket takes to
// fill.
func (l *limiter) refillTime() time.Duration {
	longest := 0.0
	for _, k := range []kind{kRequests, kCreates, kThinking} {
		r, burst := l.rate(k)
		longest = max(longest, 2*burst/r) // thinking may be in debt by a burst
	}
	return time.Duration(longest * float64(time.Second))
}

// allow takes a request of route rt from addr: nil, or how long to wait.
func (l *limiter) allow(addr string, rt route, method string) (retry time.Duration, ok bool) {
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.get(addr, now)
	type take struct {
		b    *bucket
		k    kind
		need float64 // tokens it must hold
		cost float64 // tokens it gives
	}
	takes := []take{{&b.requests, kRequests, 1, 1}}
	writes := method == http.MethodPost && rt != routeNone
	// A device or a profile may make a new player record, kept 30 days
	// without games: charged like a create (attack kit D4).
	makesRecord := method == http.MethodPut && (rt == routeMePush || rt == routeProfile)
	if writes && (rt == routeCreate || rt == routeRematch) || makesRecord {
		takes = append(takes, take{&b.creates, kCreates, 1, 1})
	}
	if writes || rt == routeReview { // a look back thinks too
		takes = append(takes, take{&b.thinking, kThinking, 0, 0})
	}
	for _, t := range takes {
		r, burst := l.rate(t.k)
		t.b.refill(now, r, burst)
		if t.b.tokens < t.need {
			retry = max(retry, t.b.wait(max(t.need, 0), r))
		}
	}
	if retry > 0 {
		return retry, false
	}
	for _, t := range takes {
		t.b.tokens -= t.cost
	}
	return 0, true
}

// charge takes n hard decisions from addr's thinking bucket, at most a
// burst into debt.
func (l *limiter) charge(addr string, n int) {
	if n == 0 {
		return
	}
	now := l.cfg.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.get(addr, now)
	r, burst := l.rate(kThinking)
	b.thinking.refill(now, r, burst)
	b.thinking.tokens = max(b.thinking.tokens-float64(n), -burst)
}

// retryAfter is Retry-After's value: whole seconds, at least 1.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}
