package bot

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tessera/engine"
)

// otherWorld rebuilds the match m with the current hand's hidden tiles
// dealt differently: two tiles the seat cannot see (not in its hand, not on
// the layout) swap places in the shuffle. It returns nil when the replay
// fails (the other deal makes a recorded play impossible).
func otherWorld(m *engine.Match, seed engine.Seed, seat int, r *rand.Rand) *engine.Match {
	o := m.Options()
	recs := slices.Clone(m.Records())
	last := recs[len(recs)-1]
	deals := slices.Clone(last.Deals)
	d := deals[len(deals)-1]
	visible := map[engine.Tile]bool{}
	for _, t := range m.View(seat).You.Tiles {
		visible[t.Normal()] = true
	}
	for _, c := range last.Plays {
		visible[c.Tile.Normal()] = true
	}
	var hidden []int
	for i, t := range d.Order {
		if !visible[t.Normal()] {
			hidden = append(hidden, i)
		}
	}
	if len(hidden) < 2 {
		return nil
	}
	i, j := hidden[r.IntN(len(hidden))], hidden[r.IntN(len(hidden))]
	if i == j {
		return nil
	}
	d.Order[i], d.Order[j] = d.Order[j], d.Order[i]
	deals[len(deals)-1] = d
	recs[len(recs)-1] = engine.HandRecord{Deals: deals, Plays: last.Plays}
	seats := make([]engine.Seat, o.Players)
	for s := range seats {
		seats[s] = m.Seat(s)
	}
	first := m.Log()[0].Leader
	m2, err := engine.Replay(o, seats, seed, first, recs)
	if err != nil {
		return nil
	}
	return m2
}

func viewJSON(t *testing.T, m *engine.Match, seat int) string {
	t.Helper()
	b, err := json.Marshal(m.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hiddenState is what differs between worlds: every other seat's tiles.
func hiddenState(m *engine.Match, seat int) string {
	var b strings.Builder
	for s := 0; s < m.Options().Players; s++ {
		if s != seat {
			b.WriteString(fmt.Sprint(m.View(s).You.Tiles))
		}
	}
	return b.String()
}

// No bot sees hidden tiles. From positions of real matches, build a
// different match in which the other seats' tiles (and the boneyard) are
// dealt otherwise, keep only those where the deciding seat's view is the
// same byte for byte, and check that every level decides the same there:
// since a Player's only input is the view, it cannot tell the worlds apart.
// The hidden tiles do differ, and they are not needed for any decision.
func TestBotsSeeOnlyTheirView(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	checked := map[string]int{}
	matches, least := 5, 30
	if testing.Short() {
		matches, least = 2, 10
	}
	for _, name := range configNames {
		o := configs[name]
		players := []Player{Medium, Easy, Medium, Easy}[:o.Players]
		for i := 0; i < matches; i++ {
			seed := engine.Seed{uint64(i), 21}
			k := 0
			playMatch(t, o, seed, players, func(m *engine.Match, seat int) bool {
				k++
				// Every sixth decision, at most 80 positions a table: the
				// positions spread over five matches and every stage of
				// them, at a third of the CPU of every third decision.
				if k%6 != 0 || m.Phase() != engine.PhasePlay || checked[name] >= 80 {
					return true
				}
				v := m.View(seat)
				if len(v.You.Legal) < 2 {
					return true
				}
				want := viewJSON(t, m, seat)
				for try := 0; try < 10; try++ {
					m2 := otherWorld(m, seed, seat, r)
					// Keep worlds the seat cannot tell apart in which the other
					// seats really hold other tiles.
					if m2 == nil || viewJSON(t, m2, seat) != want || hiddenState(m2, seat) == hiddenState(m, seat) {
						continue
					}
					v2 := m2.View(seat)
					s1, s2 := m.BotSeed(seat), m2.BotSeed(seat)
					levels := map[string]Player{"medium": Medium, "hard": Hard, "easy": Easy}
					if checked[name]%4 == 0 { // the expert costs twice hard: every fourth position
						levels["expert"] = Expert
					}
					for lvl, p := range levels {
						a, _ := p(v, s1)
						b, _ := p(v2, s2)
						if a != b {
							t.Fatalf("%s %s: %v in one world, %v in another the seat cannot tell apart", name, lvl, a, b)
						}
					}
					// The hint and the table notes read the view alone too.
					n1, ok1 := TableNotes(v)
					n2, ok2 := TableNotes(v2)
					if !ok1 || !ok2 || !reflect.DeepEqual(n1, n2) {
						t.Fatalf("%s: table notes %v and %v in worlds the seat cannot tell apart", name, n1, n2)
					}
					if checked[name]%4 == 2 {
						a1, ok1 := Advise(v, s1)
						a2, ok2 := Advise(v2, s2)
						if !ok1 || !ok2 || !reflect.DeepEqual(a1, a2) {
							t.Fatalf("%s: advice %v and %v in worlds the seat cannot tell apart", name, a1, a2)
						}
					}
					checked[name]++
					break
				}
				return true
			})
		}
	}
	for _, name := range configNames {
		if checked[name] < least {
			t.Errorf("%s: only %d positions with an indistinguishable other world", name, checked[name])
		}
	}
	t.Logf("positions checked in pairs of worlds: %v", checked)
}

// The bots' code (not the tests) touches nothing of the engine that could
// hold hidden information: no Match, no records, no encoding, no seed. Its
// inputs are the View a Player receives, and Sims it builds from its own
// sampled worlds.
func TestBotCodeUsesNoHiddenState(t *testing.T) {
	forbidden := map[string]bool{
		"Match": true, "NewMatch": true, "Replay": true, "Decode": true, "UpgradeFormat1": true,
		"Encode": true, "Seed": true, "HandRecord": true, "DealRecord": true, "Seat": true,
	}
	forbiddenMethods := map[string]bool{"Records": true, "BotSeed": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		n++
		ast.Inspect(file, func(node ast.Node) bool {
			sel, ok := node.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "engine" && forbidden[sel.Sel.Name] {
				t.Errorf("%s: uses engine.%s", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			if forbiddenMethods[sel.Sel.Name] {
				t.Errorf("%s: calls .%s", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
	if n < 5 {
		t.Fatalf("only %d source files found", n)
	}
}
