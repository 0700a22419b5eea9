package api

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/bolt"
	"tessera/functions/store/memory"
	"tessera/internal/testenv"
)

// expirer is a store that deletes expired items itself (bbolt, and memory
// for tests; DynamoDB's TTL does it on AWS).
type expirer interface {
	store.Store
	Expire(ctx context.Context, now time.Time, limit int) (int, error)
}

// pushSink is a push service stand-in that answers every message with
// status and keeps the VAPID key each came signed for.
type pushSink struct {
	mu     sync.Mutex
	status int
	keys   []string
}

func (p *pushSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	p.mu.Lock()
	defer p.mu.Unlock()
	// "vapid t=<jwt>, k=<public key>"
	if _, k, ok := strings.Cut(r.Header.Get("Authorization"), "k="); ok {
		p.keys = append(p.keys, k)
	}
	w.WriteHeader(p.status)
}

func (p *pushSink) got() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.keys...)
}

// play makes the first legal move of whoever must play in game id.
func (s *server) playOnce(id string, tokens []string, moveID string) {
	s.t.Helper()
	_, actor, body := s.firstPlay(id, tokens, moveID)
	if r := s.do("POST", "/api/games/"+id+"/moves", body, tokens[actor]); r.status != 200 {
		s.t.Fatalf("move: %d %s", r.status, r.body)
	}
}

// Every stored kind has its own lifetime, on a clock the test moves: the
// VAPID key pair never expires, so 250 days after the first push a push
// still reaches the device with the same key; a key's record lives as
// long as its game, which was written yesterday (day 249), though the
// record itself was last changed on day 0; a game nobody wrote for 180
// days and a record that only ever held a device are gone.
func TestLifetimesByKind(t *testing.T) {
	for _, c := range []struct {
		name string
		open func(t *testing.T) expirer
	}{
		{"memory", func(*testing.T) expirer { return memory.New() }},
		{"bbolt", func(t *testing.T) expirer {
			b, err := bolt.Open(filepath.Join(t.TempDir(), "games.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close() })
			return b
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := c.open(t)
			clock := &testenv.Clock{T: fixedNow}
			sink := &pushSink{status: http.StatusCreated}
			service := httptest.NewServer(sink)
			defer service.Close()
			logs := &logBuffer{}
			// A handler per "process": a Lambda or a restarted server reads
			// the key pair from the store again.
			handler := func() http.Handler {
				return New(Config{Store: st, Now: clock.Now, Rand: seededReader(uint64(clock.Now().Unix())),
					Logger: slog.New(slog.NewJSONHandler(logs, nil)), Push: &PushConfig{Insecure: true, Subject: "mailto:t@tessera.invalid"}})
			}
			s := &server{t: t, store: st, logs: logs, h: handler()}
			key := s.vapidKey()

			id, tokA, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`)
			_, tokB, _ := s.join(id, `{"name":"Bea","key":"`+keyBea+`"}`)
			tokens := []string{tokA, tokB}
			for _, k := range []string{keyAna, keyBea} {
				if r := s.do("PUT", "/api/me/push", sub(service.URL+"/"+k[:3]), k); r.status != 204 {
					t.Fatalf("PUT /api/me/push: %d %s", r.status, r.body)
				}
			}
			const bare = "carlo-key-0123456789abcdefghijk"
			if r := s.do("PUT", "/api/me/push", sub(service.URL+"/carlo"), bare); r.status != 204 {
				t.Fatalf("PUT /api/me/push: %d %s", r.status, r.body)
			}
			old, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Dora","bots":[{"seat":1,"level":"easy"}]}`)

			s.playOnce(id, tokens, "day0")
			waitFor(t, func() bool { return len(sink.got()) >= 1 })
			for _, day := range []int{40, 100, 170, 230, 249} {
				clock.Add(time.Duration(day)*24*time.Hour - clock.Now().Sub(fixedNow))
				s.h = handler()
				s.playOnce(id, tokens, "day"+itoa(int64(day)))
				if n, err := st.Expire(t.Context(), clock.Now(), 1000); err != nil {
					t.Fatalf("Expire on day %d: %d, %v", day, n, err)
				}
			}
			clock.Add(24 * time.Hour) // day 250: past a record's first TTL + recordWindow
			if _, err := st.Expire(t.Context(), clock.Now(), 1000); err != nil {
				t.Fatal(err)
			}
			s.h = handler()
			if got := s.vapidKey(); got != key {
				t.Fatalf("the VAPID key changed after 250 days: %s, was %s", got, key)
			}
			for _, k := range []string{keyAna, keyBea} {
				if games := s.me(k).Games; len(games) != 1 || games[0].ID != id {
					t.Fatalf("key %s after 250 days lists %+v; its game was written yesterday", k[:3], games)
				}
			}
			before := len(sink.got())
			s.playOnce(id, tokens, "day250")
			waitFor(t, func() bool { return len(sink.got()) > before })
			for _, k := range sink.got()[before:] {
				if k != key {
					t.Fatalf("a push on day 250 was signed with %s, want %s", k, key)
				}
			}
			if r := s.do("GET", "/api/games/"+old, "", ""); r.status != 404 {
				t.Errorf("a game nobody wrote for 250 days: %d, want 404", r.status)
			}
			if _, err := st.Load(t.Context(), game.PlayerID(game.HashToken(bare))); err == nil {
				t.Errorf("a record that only held a device is still kept after 250 days")
			}
		})
	}
}

// A push service that refuses our VAPID key for a device (401 or 403)
// makes the server drop that device, as a 404 or 410 does.
func TestARejectedKeyDropsTheDevice(t *testing.T) {
	sink := &pushSink{status: http.StatusForbidden}
	service := httptest.NewServer(sink)
	defer service.Close()
	st := memory.New()
	s := newPushServer(t, st, 8)
	id, tokA, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`)
	_, tokB, _ := s.join(id, `{"name":"Bea","key":"`+keyBea+`"}`)
	for _, k := range []string{keyAna, keyBea} {
		if r := s.do("PUT", "/api/me/push", sub(service.URL+"/"+k[:3]), k); r.status != 204 {
			t.Fatalf("PUT /api/me/push: %d %s", r.status, r.body)
		}
	}
	s.playOnce(id, []string{tokA, tokB}, "m1")
	waitFor(t, func() bool {
		a, _, _ := s.h.(*Handler).svc.LoadPlayer(t.Context(), game.HashToken(keyAna))
		b, _, _ := s.h.(*Handler).svc.LoadPlayer(t.Context(), game.HashToken(keyBea))
		return len(sink.got()) > 0 && len(a.Devices)+len(b.Devices) == 1
	})
}

// waitFor polls cond for up to 5 seconds (pushes go out beside the answer).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// blockingSink holds every push until release is closed, counting how
// many wait at once.
type blockingSink struct {
	mu       sync.Mutex
	inFlight int
	most     int
	release  chan struct{}
}

func (b *blockingSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	b.mu.Lock()
	b.inFlight++
	b.most = max(b.most, b.inFlight)
	b.mu.Unlock()
	select {
	case <-b.release:
	case <-r.Context().Done():
	}
	b.mu.Lock()
	b.inFlight--
	b.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
}

// A sweep's pushes never hold its next game (attack kit D1: a device whose
// push service hangs delayed every timeout after it by up to 0.9 s): with
// five games timing out and every push held by the push service, all
// five games' pushes are in flight at once.
func TestASweepDoesNotWaitForItsPushes(t *testing.T) {
	sink := &blockingSink{release: make(chan struct{})}
	service := httptest.NewServer(sink)
	defer service.Close()
	defer close(sink.release)
	clock := &testenv.Clock{T: fixedNow}
	st := memory.New()
	h := New(Config{Store: st, Now: clock.Now, Rand: seededReader(9), Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Push: &PushConfig{Insecure: true, Subject: "mailto:t@tessera.invalid"}})
	s := &server{t: t, store: st, logs: &logBuffer{}, h: h}
	const games = 5
	for range games {
		id, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","moveTime":60,"key":"` + keyAna + `"}`)
		s.join(id, `{"name":"Bea","key":"`+keyBea+`"}`)
	}
	for _, k := range []string{keyAna, keyBea} {
		if r := s.do("PUT", "/api/me/push", sub(service.URL+"/"+k[:3]), k); r.status != 204 {
			t.Fatalf("PUT /api/me/push: %d %s", r.status, r.body)
		}
	}
	clock.Add(2 * time.Minute)
	done := make(chan int, 1)
	go func() { n, _ := h.svc.Sweep(context.Background(), "test"); done <- n }()
	waitFor(t, func() bool {
		sink.mu.Lock()
		defer sink.mu.Unlock()
		return sink.most >= games
	})
	sink.mu.Lock()
	t.Logf("%d pushes in flight at once", sink.most)
	sink.mu.Unlock()
	if n := <-done; n != games {
		t.Fatalf("the sweep took %d games, want %d", n, games)
	}
}
