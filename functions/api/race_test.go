package api

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"tessera/functions/game"
	"testing"

	"tessera/functions/store"
	"tessera/functions/store/bolt"
	"tessera/functions/store/memory"
	"tessera/functions/store/storetest"
	"tessera/internal/testenv"
)

// TestMain shares one dynalite among the tests that need it.
func TestMain(m *testing.M) { testenv.Main(m) }

// raceMoves is how many moves race for one version.
const raceMoves = 32

// raceStores are the adapters the race tests run on. open returns the
// store and a function to call once the game is set up, just before the
// race.
var raceStores = []struct {
	name string
	open func(t *testing.T) (store.Store, func())
}{
	{"memory", func(t *testing.T) (store.Store, func()) { return memory.New(), func() {} }},
	{"bbolt", func(t *testing.T) (store.Store, func()) {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "games.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b, func() {}
	}},
	{"dynamodb via dynalite", func(t *testing.T) (store.Store, func()) { return storetest.NewDynalite(t), func() {} }},
	// Every request passes its checks on the same version before any of
	// them saves, so all but one lose at the store's conditional write.
	{"memory, all saves at once", func(t *testing.T) (store.Store, func()) {
		f := storetest.NewFaulty(memory.New())
		arm := func() {
			var arrived sync.WaitGroup
			arrived.Add(raceMoves)
			f.BeforeEverySave(func(ctx context.Context, id string, expected int64) {
				if !game.ValidGameID(id) {
					return // a player's record or profile, not the game
				}
				arrived.Done()
				arrived.Wait()
			})
		}
		return f, arm
	}},
}

// parallel sends n requests at once and returns the answers.
func parallel(s *server, n int, req func(i int) (method, path, body, token string)) []response {
	out := make([]response, n)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := 0; i < n; i++ {
		done.Add(1)
		go func() {
			defer done.Done()
			method, path, body, token := req(i)
			start.Wait()
			out[i] = s.do(method, path, body, token)
		}()
	}
	start.Done()
	done.Wait()
	return out
}

// codeOf is a response's error code, or its status for a success.
func codeOf(r response) string {
	var e errorJSON
	if json.Unmarshal(r.body, &e) == nil && e.Error.Code != "" {
		return e.Error.Code
	}
	return fmt.Sprint(r.status)
}

func TestConcurrentMovesOnOneVersionApplyExactlyOne(t *testing.T) {
	const n = raceMoves
	for _, st := range raceStores {
		t.Run(st.name, func(t *testing.T) {
			backend, arm := st.open(t)
			s := newServer(t, backend, 21)
			id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"redeal":false,"name":"Ana"}`)
			v := s.poll(id, tokens[0])
			actor := *v.Hand.Turn
			lm := s.poll(id, tokens[actor]).You.Legal[0]
			arm()
			answers := parallel(s, n, func(i int) (string, string, string, string) {
				body := fmt.Sprintf(`{"version":%d,"moveId":"race-%d","type":"play","tile":[%d,%d],"end":%q}`,
					v.Version, i, lm.Tile[0], lm.Tile[1], lm.End)
				return "POST", "/api/games/" + id + "/moves", body, tokens[actor]
			})
			counts := map[string]int{}
			for _, r := range answers {
				counts[codeOf(r)]++
				if r.status == 409 {
					if g := mustError(t, r).Game; g == nil || mustView(t, g).Version != v.Version+1 {
						t.Errorf("stale_version without the current view: %s", r.body)
					}
				}
			}
			if counts["200"] != 1 || counts["stale_version"] != n-1 {
				t.Fatalf("answers %v, want one 200 and %d stale_version", counts, n-1)
			}
			if got := s.stored(id).Version; got != v.Version+1 {
				t.Fatalf("stored version %d, want %d", got, v.Version+1)
			}
		})
	}
}

func TestConcurrentSeats(t *testing.T) {
	for _, st := range raceStores[:3] {
		t.Run(st.name, func(t *testing.T) {
			backend, _ := st.open(t)
			s := newServer(t, backend, 22)
			t.Run("any free seat: every seat once, then game_full", func(t *testing.T) {
				id, _, _ := s.create(`{"variant":"fiveup","players":4,"name":"Ana"}`)
				answers := parallel(s, 8, func(i int) (string, string, string, string) {
					return "POST", "/api/games/" + id + "/seats", fmt.Sprintf(`{"name":"P%d"}`, i), ""
				})
				var seats []int
				counts := map[string]int{}
				for _, r := range answers {
					counts[codeOf(r)]++
					if r.status == 201 {
						var a seatAnswerJSON
						if err := json.Unmarshal(r.body, &a); err != nil {
							t.Fatal(err)
						}
						seats = append(seats, a.Seat)
					}
				}
				sort.Ints(seats)
				if fmt.Sprint(seats) != "[1 2 3]" || counts["game_full"] != 5 {
					t.Fatalf("seats %v, answers %v; want seats [1 2 3] and 5 game_full", seats, counts)
				}
				if v := s.poll(id, ""); v.Version != 4 || v.Status != "playing" {
					t.Fatalf("version %d status %s, want 4 playing", v.Version, v.Status)
				}
			})
			t.Run("the same named seat: one wins, the other is seat_taken", func(t *testing.T) {
				id, _, _ := s.create(`{"variant":"fiveup","players":4,"name":"Ana"}`)
				answers := parallel(s, 2, func(i int) (string, string, string, string) {
					return "POST", "/api/games/" + id + "/seats", fmt.Sprintf(`{"name":"P%d","seat":2}`, i), ""
				})
				counts := map[string]int{}
				for _, r := range answers {
					counts[codeOf(r)]++
				}
				if counts["201"] != 1 || counts["seat_taken"] != 1 {
					t.Fatalf("answers %v, want one 201 and one seat_taken", counts)
				}
				if v := s.poll(id, ""); v.Version != 2 {
					t.Fatalf("version %d, want 2", v.Version)
				}
			})
		})
	}
}
