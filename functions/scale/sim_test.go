package scale

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/community"
	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/dynamo"
	"tessera/functions/store/memory"
	"tessera/internal/testenv"
)

// population is what a simulated day of players does (docs/scale.md,
// "The simulation"): each person keeps Games two-player Five Up games
// (to 50, a day a move) going, answers a turn about ReplyMinutes after it
// comes (one person in six is slow: SlowMinutes, so reminders and
// timeouts reach the sweep) (their page, woken by a push, reads the game, then they move),
// finds a new game in the room's lobby (LobbyShare of them: the lobby
// read, then a seat at an open table or an open table of their own) or
// with a friend, looks at the leaderboard after each match and at the
// start page four times a day. The clock sweep runs every minute.
type population struct {
	Players, Games, ReplyMinutes, SlowMinutes, Hours int
	LobbyShare                                       float64
	Seed                                             uint64
}

// run is what a simulation measured.
type run struct {
	pop                      population
	loads                    []Load
	moves, requests, matches int
	swept                    int // items the sweeps handled
	storeOps                 int
	stored, storedBytes      int // items left in the store and their bytes (dynamo.ItemSize)
	seconds                  float64
	byKey                    map[Key]Load
	playerDaysOfMoves        float64
}

var op = game.Op{Host: "scale.test"}

func simulate(t testing.TB, pop population) *run {
	ctx := context.Background()
	clock := &testenv.Clock{T: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Tick: time.Microsecond}
	inner := memory.New()
	counted := NewCounter(inner, clock.Now)
	svc := game.New(game.Config{Store: counted, Now: clock.Now, Rand: testenv.Seeded(pop.Seed)})
	com := community.New(svc)
	// The simulation's own bookkeeping (who is to act) reads the store
	// beside the counter: it is no player's request.
	look := game.New(game.Config{Store: inner, Now: clock.Now, Rand: testenv.Seeded(pop.Seed + 1000)})
	rnd := rand.New(rand.NewPCG(pop.Seed, 45))
	r := &run{pop: pop}

	keys := make([]string, pop.Players)
	hashes := make([][]byte, pop.Players)
	for i := range keys {
		keys[i] = fmt.Sprintf("s%d-p%05d-scale-key-0123456789abcdef", pop.Seed, i) // each run its own people
		hashes[i] = game.HashToken(keys[i])
	}
	type table struct {
		id    string
		seats map[int]int // seat -> player
		open  bool
	}
	var tables []*table
	playing := make([]int, pop.Players) // games each player has going or waiting
	opts := engine.DefaultOptions(engine.FiveUp)
	opts.Players, opts.Pairs, opts.Target = 2, false, 50
	name := func(p int) string { return fmt.Sprintf("P%d", p) }

	create := func(p int, open bool) *table {
		r.requests++
		a, err := svc.Create(ctx, op, game.CreateRequest{Options: opts, Name: name(p), Key: keys[p], MoveTime: 86400, Open: open})
		if err != nil {
			t.Fatalf("create: %v", err)
		}
		tb := &table{id: a.Meta.ID, seats: map[int]int{0: p}, open: open}
		tables = append(tables, tb)
		playing[p]++
		return tb
	}
	seat := func(tb *table, p int) bool {
		r.requests++
		a, err := svc.TakeSeat(ctx, op, tb.id, game.SeatRequest{Name: name(p), Seat: -1, Key: keys[p]})
		if err != nil {
			return false
		}
		tb.seats[a.Seat] = p
		tb.open = false
		playing[p]++
		return true
	}
	// newGame finds player p a game: the lobby's, or a friend's.
	newGame := func(p int) {
		if rnd.Float64() < pop.LobbyShare {
			r.requests++
			if _, err := com.Lobby(ctx, "fiveup", nil, hashes[p]); err != nil {
				t.Fatalf("lobby: %v", err)
			}
			for _, tb := range tables {
				if tb.open && tb.seats[0] != p && len(tb.seats) == 1 && seat(tb, p) {
					return
				}
			}
			create(p, true)
			return
		}
		friend := rnd.IntN(pop.Players - 1)
		if friend >= p {
			friend++
		}
		tb := create(p, false)
		if !seat(tb, friend) {
			t.Fatalf("a friend could not sit")
		}
	}
	for p := range pop.Players {
		for playing[p] < pop.Games {
			newGame(p)
		}
	}

	for minute := 0; minute < pop.Hours*60; minute++ {
		clock.Add(time.Minute)
		var next []*table
		var freed []int
		for _, tb := range tables {
			if tb.open {
				next = append(next, tb)
				continue
			}
			g, err := look.Load(ctx, tb.id)
			if err != nil {
				t.Fatal(err)
			}
			m, err := g.Replay()
			if err != nil {
				t.Fatal(err)
			}
			acts := m.ToAct()
			if m.Status() != engine.StatusPlaying || len(acts) == 0 {
				r.matches++
				for seat := range len(tb.seats) { // in seat order: the run repeats exactly
					p := tb.seats[seat]
					playing[p]--
					freed = append(freed, p)
				}
				continue
			}
			next = append(next, tb)
			s := acts[0]
			reply := pop.ReplyMinutes
			if tb.seats[s]%6 == 5 {
				reply = pop.SlowMinutes
			}
			if m.Seat(s).Away || rnd.Float64() >= 1/float64(reply) {
				continue
			}
			mv := engine.Move{Kind: engine.Keep}
			if s == m.Turn() {
				legal := m.AppendLegal(s, nil)
				mv = legal[rnd.IntN(len(legal))]
			}
			// The push woke the page: it reads the game, then the player moves.
			r.requests += 2
			if _, _, err := svc.Read(ctx, op, tb.id, keys[tb.seats[s]], true, 0); err != nil {
				t.Fatalf("read: %v", err)
			}
			if _, err := svc.Move(ctx, op, tb.id, keys[tb.seats[s]], game.MoveRequest{Version: g.Version(), Move: mv}); err != nil && !errors.Is(err, game.ErrStale) {
				t.Fatalf("move: %v", err)
			}
			r.moves++
		}
		tables = next
		for _, p := range freed {
			r.requests++
			if _, err := com.Leaderboard(ctx, community.Pools[0]); err != nil {
				t.Fatalf("leaderboard: %v", err)
			}
			for playing[p] < pop.Games {
				newGame(p)
			}
		}
		// The start page, four times a day, each player at their own times.
		for p := range pop.Players {
			if (minute+p*37)%360 == 0 {
				r.requests++
				if _, err := svc.MyGames(ctx, hashes[p]); err != nil && !errors.Is(err, store.ErrNotFound) {
					t.Fatalf("my games: %v", err)
				}
			}
		}
		// (The sweep is one invocation a minute whatever the site's size:
		// not a request.)
		n, err := svc.Sweep(ctx, op.Host)
		if err != nil {
			t.Fatalf("sweep: %v", err)
		}
		r.swept += n
	}
	r.loads = counted.Loads()
	r.storeOps = counted.Ops()
	for _, it := range counted.items {
		r.stored++
		r.storedBytes += it.size
	}
	r.seconds = float64(pop.Hours) * 3600
	r.byKey = map[Key]Load{}
	for _, l := range r.loads {
		r.byKey[l.Key] = l
	}
	r.playerDaysOfMoves = float64(r.moves) / float64(pop.Players) / (r.seconds / 86400)
	return r
}

// Assumptions of the table at scale (docs/scale.md): a quarter of the
// players play on a given day, the evening peak is four times the day's
// mean, a request runs 50 ms of a Lambda, and each of the account's
// partitions takes 3,000 read and 1,000 write units a second.
const (
	activeShare  = 0.25
	peakToMean   = 4.0
	requestSecs  = 0.05
	readLimit    = 3000.0
	writeLimit   = 1000.0
	lambdaLimit  = 1000.0
	shardSamples = 100000
)

// shardImbalance is how much more than its share the fullest due shard
// takes, over many game ids of the service's form (random, base64url).
func shardImbalance(t testing.TB) float64 {
	rnd := testenv.Seeded(7)
	n := map[string]int{}
	b := make([]byte, 9)
	for range shardSamples {
		if _, err := rnd.Read(b); err != nil {
			t.Fatal(err)
		}
		n[dynamo.DueShardOf(fmt.Sprintf("%x", b))]++
	}
	most := 0
	for _, c := range n {
		most = max(most, c)
	}
	return float64(most) / (float64(shardSamples) / dynamo.DueShards)
}

// atScale is one key's rate at the evening peak of a site of n players,
// from the two runs: a key both runs hold (a list, a due shard, one item
// every request reads) grows with the players; any other (a game's, a
// player's) is one item's, as busy as the busiest the runs saw.
type atScale struct {
	Key         string
	Read, Write float64 // units a second at the peak
}

// peakFactor turns a rate of the run into the evening peak's of a site of
// n players.
func (r *run) peakFactor(n float64) float64 {
	return n * activeShare / float64(r.pop.Players) * peakToMean
}

func scaleTo(small, large *run, n float64, imbalance float64) []atScale {
	var out []atScale
	factor := large.peakFactor(n)
	var dueWrites, sweepReads float64
	var busiest atScale
	for k, l := range large.byKey {
		_, shared := small.byKey[k]
		switch {
		case k.Space == Due:
			// The shards together, as one index whose writes spread by the
			// hash (the runs' few games fill them unevenly); its reads are
			// the sweep's, 33 queries a minute whatever the site's size.
			dueWrites += l.Total.Write
			sweepReads = max(sweepReads, l.Total.Read/large.seconds)
		case shared:
			out = append(out, atScale{Key: k.Space + " " + k.PK, Read: l.Total.Read / large.seconds * factor, Write: l.Total.Write / large.seconds * factor})
		default:
			// One item: its busiest minute (a person's game is no faster
			// at the evening peak).
			w, rd := l.Peak.Write/60, l.Peak.Read/60
			if w+rd/3 > busiest.Write+busiest.Read/3 {
				busiest = atScale{Key: "busiest item (" + k.Space + ")", Read: rd, Write: w}
			}
		}
	}
	out = append(out, atScale{Key: fmt.Sprintf("due (fullest of %d shards)", dynamo.DueShards), Read: sweepReads * imbalance,
		Write: dueWrites / large.seconds * factor / dynamo.DueShards * imbalance}, busiest)
	sort.Slice(out, func(i, j int) bool {
		return out[i].Write/writeLimit+out[i].Read/readLimit > out[j].Write/writeLimit+out[j].Read/readLimit
	})
	return out
}

// TestNoKeyIsHotAtTenMillionPlayers plays two populations (one twice the
// other) through the real services over a counting store, and scales
// their load on each partition key to 10k-10M players: at ten million, no
// key may take more than half of a partition's read or write units a
// second. `go test -run TestNoKeyIsHotAtTenMillionPlayers -v
// ./functions/scale` prints the table docs/scale.md shows.
func TestNoKeyIsHotAtTenMillionPlayers(t *testing.T) {
	pop := population{Players: 18, Games: 2, ReplyMinutes: 40, SlowMinutes: 16 * 60, Hours: 48, LobbyShare: 0.5, Seed: 1}
	small := simulate(t, pop)
	// Twice the people, other people and other games: what both runs'
	// keys share is the site's, not one game's or one player's.
	pop.Players *= 2
	pop.Seed++
	large := simulate(t, pop)
	imbalance := shardImbalance(t)
	if large.moves < 500 || large.matches < 10 {
		t.Fatalf("the larger population made %d moves and %d matches in a day: too few to measure", large.moves, large.matches)
	}
	t.Logf("simulated %d hours: %d players, %d moves (%.1f a player a day), %d matches, %d requests (%.2f a move), %d items swept; fullest due shard %.3f x its share",
		large.pop.Hours, large.pop.Players, large.moves, large.playerDaysOfMoves, large.matches, large.requests, float64(large.requests)/float64(large.moves), large.swept, imbalance)
	var b strings.Builder
	fmt.Fprintf(&b, "\n| players | moves/s at peak | requests/s | Lambda concurrency | sweep items/min | hottest keys (read / write units a second at the peak) |\n|---|---|---|---|---|---|\n")
	for _, n := range []float64{1e4, 1e5, 1e6, 1e7} {
		factor := large.peakFactor(n)
		moves := float64(large.moves) / large.seconds * factor
		reqs := float64(large.requests) / large.seconds * factor
		keys := scaleTo(small, large, n, imbalance)
		var hot []string
		for _, k := range keys[:min(4, len(keys))] {
			hot = append(hot, fmt.Sprintf("%s %.1f / %.1f", k.Key, k.Read, k.Write))
		}
		swept := float64(large.swept) / large.seconds * factor * 60
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.0f | %.0f | %s |\n", humanCount(n), moves, reqs, reqs*requestSecs, swept, strings.Join(hot, "; "))
		if n == 1e7 {
			for _, k := range keys {
				if k.Read > readLimit/2 || k.Write > writeLimit/2 {
					t.Errorf("at 10M players %s takes %.0f read and %.0f write units a second at the peak: over half a partition's %v / %v", k.Key, k.Read, k.Write, readLimit, writeLimit)
				}
			}
			if c := reqs * requestSecs; c > lambdaLimit {
				t.Logf("at 10M players the peak needs %.0f concurrent Lambdas: over the account's default %v (a quota increase)", c, lambdaLimit)
			}
		}
	}
	t.Log(b.String())
	// The Worker's one D1 database (docs/scale.md): every store operation
	// is a query, and the items stay their lifetime.
	t.Logf("store operations: %.2f a move (%.2f a request); after %d hours %d items of %.0f bytes on average (%.2f items, %.0f bytes a player a day)",
		float64(large.storeOps)/float64(large.moves), float64(large.storeOps)/float64(large.requests), large.pop.Hours, large.stored,
		float64(large.storedBytes)/float64(large.stored), float64(large.stored)/float64(large.pop.Players)/(large.seconds/86400),
		float64(large.storedBytes)/float64(large.pop.Players)/(large.seconds/86400))
	t.Logf("keys both populations share (their whole run):")
	for _, l := range large.loads {
		if _, ok := small.byKey[l.Key]; ok {
			t.Logf("  %-6s %-28s read %8.1f write %8.1f  (the smaller population: read %8.1f write %8.1f)", l.Key.Space, l.Key.PK, l.Total.Read, l.Total.Write, small.byKey[l.Key].Total.Read, small.byKey[l.Key].Total.Write)
		}
	}
}

func humanCount(n float64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.0fM", n/1e6)
	default:
		return fmt.Sprintf("%.0fk", n/1e3)
	}
}
