package api

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// laggingStore is a store whose eventual reads return what it held before
// its last write, as a DynamoDB replica that has not caught up may.
type laggingStore struct {
	store.Store
	mu        sync.Mutex
	before    map[string]*store.Item // nil entry: the game did not exist yet
	eventual  int
	lagging   bool
	strongAll int
}

func newLaggingStore() *laggingStore {
	return &laggingStore{Store: memory.New(), before: map[string]*store.Item{}}
}

func (l *laggingStore) remember(ctx context.Context, id string) {
	item, err := l.Store.Load(ctx, id)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.before[id] = nil
		return
	}
	l.before[id] = &item
}

func (l *laggingStore) Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error {
	l.remember(ctx, id)
	return l.Store.Create(ctx, id, state, now, due, expires)
}

func (l *laggingStore) Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error {
	l.remember(ctx, id)
	return l.Store.Save(ctx, id, state, expected, now, due, expires)
}

func (l *laggingStore) Load(ctx context.Context, id string) (store.Item, error) {
	l.mu.Lock()
	l.strongAll++
	l.mu.Unlock()
	return l.Store.Load(ctx, id)
}

func (l *laggingStore) LoadEventual(ctx context.Context, id string) (store.Item, error) {
	l.mu.Lock()
	l.eventual++
	before, known := l.before[id]
	lag := l.lagging
	l.mu.Unlock()
	if lag && known {
		if before == nil {
			return store.Item{}, store.ErrNotFound
		}
		return *before, nil
	}
	return l.Store.Load(ctx, id)
}

func (l *laggingStore) counts() (eventual, strong int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.eventual, l.strongAll
}

// TestPollsReadAMomentStaleOnlyWhereItIsHarmless: with a store whose
// eventual reads lag one write behind, a poll never shows a page anything
// older than what it holds, a first GET is never stale, and the polls that
// name their version are the ones that read eventually.
func TestPollsReadAMomentStaleOnlyWhereItIsHarmless(t *testing.T) {
	st := newLaggingStore()
	s := newServer(t, st, 21)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"name":"A"}`)
	v1 := s.poll(id, tokens[0]).Version
	tag := func(v int64, seat int) string {
		return `"v` + strconv.FormatInt(v, 10) + `-s` + strconv.Itoa(seat) + `"`
	}

	// Up to date: a poll naming the version reads eventually and is a 304.
	e0, s0 := st.counts()
	r := s.do("GET", "/api/games/"+id, "", tokens[0], "If-None-Match", tag(v1, 0))
	e1, s1 := st.counts()
	if r.status != 304 || e1 != e0+1 || s1 != s0 {
		t.Fatalf("poll at the current version: status %d, eventual reads +%d, strong +%d; want 304, +1, +0", r.status, e1-e0, s1-s0)
	}

	// A move; the eventual read now lags one version behind.
	_, actor, body := s.firstPlay(id, tokens, "m1")
	if r := s.do("POST", "/api/games/"+id+"/moves", body, tokens[actor]); r.status != 200 {
		t.Fatalf("move: %d %s", r.status, r.body)
	}
	v2 := s.stored(id).Version
	st.lagging = true
	other := 1 - actor

	// The page that holds the old version may be told 304 a moment longer.
	if r := s.do("GET", "/api/games/"+id, "", tokens[other], "If-None-Match", tag(v1, other)); r.status != 304 || r.header.Get("ETag") != tag(v1, other) {
		t.Errorf("poll at the old version while the read lags: %d, ETag %s; want 304 at %s", r.status, r.header.Get("ETag"), tag(v1, other))
	}
	// The mover's page holds the new version (the move's answer): the
	// lagging read is older than that, so it reads again strongly.
	e0, s0 = st.counts()
	r = s.do("GET", "/api/games/"+id, "", tokens[actor], "If-None-Match", tag(v2, actor))
	e1, s1 = st.counts()
	if r.status != 304 || r.header.Get("ETag") != tag(v2, actor) || e1 != e0+1 || s1 != s0+1 {
		t.Errorf("poll at the new version while the read lags: %d, ETag %s, eventual +%d, strong +%d; want 304 at %s after one strong read",
			r.status, r.header.Get("ETag"), e1-e0, s1-s0, tag(v2, actor))
	}
	// An older tag than the stored one and a lagging read still newer than
	// it: a true view (version v1 > v1-1), never older than the page's.
	if r := s.do("GET", "/api/games/"+id, "", tokens[other], "If-None-Match", tag(v1-1, other)); r.status != 200 || mustView(t, r.body).Version < v1 {
		t.Errorf("poll naming v%d: %d, want 200 at v%d or later", v1-1, r.status, v1)
	}
	// No version named (a first GET, or a poll a push asked for): strong, the newest.
	e0, _ = st.counts()
	if v := s.poll(id, tokens[other]); v.Version != v2 {
		t.Errorf("poll without If-None-Match while the read lags: version %d, want %d", v.Version, v2)
	}
	if e1, _ := st.counts(); e1 != e0 {
		t.Errorf("a poll without If-None-Match read eventually %d times", e1-e0)
	}
	// Names that are not ours, or "*", read strongly.
	for _, inm := range []string{`*`, `"abc"`, `"v-s1"`, `W/"vx-s0"`} {
		e0, _ = st.counts()
		r := s.do("GET", "/api/games/"+id, "", tokens[other], "If-None-Match", inm)
		if e1, _ := st.counts(); e1 != e0 {
			t.Errorf("If-None-Match %s read eventually", inm)
		}
		if inm == "*" && r.status != 304 {
			t.Errorf("If-None-Match *: %d, want 304", r.status)
		}
		if inm != "*" && (r.status != 200 || mustView(t, r.body).Version != v2) {
			t.Errorf("If-None-Match %s: %d, want 200 at v%d", inm, r.status, v2)
		}
	}

	// A game the lagging read does not see yet (just created) is read again
	// strongly, never a 404.
	id2, tok2, _ := s.create(`{"variant":"fiveup","players":2,"name":"B"}`)
	if r := s.do("GET", "/api/games/"+id2, "", tok2, "If-None-Match", tag(1, 0)); r.status != 304 {
		t.Errorf("a new game, eventual read not caught up: %d %s, want 304", r.status, r.body)
	}
}

func TestHeldVersion(t *testing.T) {
	for _, c := range []struct {
		header []string
		want   int64
	}{
		{nil, 0},
		{[]string{`"v12-s2"`}, 12},
		{[]string{`W/"v12-x"`}, 12},
		{[]string{`"v3-s0", "v15-s1"`, `"v9-s0"`}, 15},
		{[]string{`*`}, 0},
		{[]string{`"v-s0"`, `"vabc-s0"`, `"v12"`, `"x12-s0"`, `"v-3-s0"`}, 0},
		{[]string{`"v99999999999999999999-s0"`}, 0},
	} {
		if got := heldVersion(c.header); got != c.want {
			t.Errorf("heldVersion(%q) = %d, want %d", c.header, got, c.want)
		}
	}
}
