package pairing

import (
	"fmt"
	"slices"
	"testing"
)

func tables(ts []Table) string { return fmt.Sprint(ts) }

// A small Swiss, worked by hand. Seven entrants a..g, two a table.
//
// Round 1, by id alone: 7 is odd, one bye, to the last who has not had
// one: g. Tables a-b, c-d, e-f. Say a, c, e win; g's bye is worth 1.
// Points: a1 c1 e1 g1, b0 d0 f0. Buchholz (opponents' points now): a has
// b (0) = 0; c has d = 0; e has f = 0; g has none (a bye adds nothing) =
// 0; b has a (1) = 1; d has c = 1; f has e = 1.
// Order: a c e g (1 point, Buchholz 0, by id), then b d f (0 points,
// Buchholz 1, by id).
//
// Round 2: the bye goes to the last who has not had one: f. Then from the
// top: a meets the first below not met yet: c. e meets g. b meets d.
func TestSwissByHand(t *testing.T) {
	es := []string{"g", "f", "e", "d", "c", "b", "a"}
	r1 := Swiss(es, History{}, 2)
	if got := tables(r1); got != "[[a b] [c d] [e f] [g]]" {
		t.Fatalf("round 1: %s", got)
	}
	h := History{Byes: []string{"g"}, Results: []Result{
		{Players: []string{"a", "b"}, Points: []int{1, 0}},
		{Players: []string{"c", "d"}, Points: []int{1, 0}},
		{Players: []string{"e", "f"}, Points: []int{1, 0}},
	}}
	order := Order(es, h)
	want := "[{a 1 0 1} {c 1 0 2} {e 1 0 3} {g 1 0 4} {b 0 1 5} {d 0 1 6} {f 0 1 7}]"
	if got := fmt.Sprint(order); got != want {
		t.Fatalf("order after round 1:\n got %s\nwant %s", got, want)
	}
	if got := tables(Swiss(es, h, 2)); got != "[[a c] [e g] [b d] [f]]" {
		t.Fatalf("round 2: %s", got)
	}
}

// No repeat pairing while one can be avoided; when a player has met
// everyone below, they meet the first unpaired one.
func TestSwissAvoidsRematches(t *testing.T) {
	es := []string{"a", "b", "c", "d"}
	h := History{Results: []Result{
		{Players: []string{"a", "b"}, Points: []int{1, 0}},
		{Players: []string{"c", "d"}, Points: []int{1, 0}},
	}}
	// Order a c (1), b d (0; Buchholz 1 each): a-c, b-d: new pairings.
	if got := tables(Swiss(es, h, 2)); got != "[[a c] [b d]]" {
		t.Fatalf("round 2: %s", got)
	}
	h.Results = append(h.Results, Result{Players: []string{"a", "c"}, Points: []int{1, 0}}, Result{Players: []string{"b", "d"}, Points: []int{1, 0}})
	// a 2; b 1, c 1; d 0. a has met b and c: a-d; then b-c.
	if got := tables(Swiss(es, h, 2)); got != "[[a d] [b c]]" {
		t.Fatalf("round 3: %s", got)
	}
	h.Results = append(h.Results, Result{Players: []string{"a", "d"}, Points: []int{1, 0}}, Result{Players: []string{"b", "c"}, Points: []int{1, 0}})
	// Everyone has met everyone: from the top, the first unpaired.
	if got := tables(Swiss(es, h, 2)); got != "[[a b] [c d]]" {
		t.Fatalf("round 4: %s", got)
	}
}

// A bye goes at most once while someone has not had one; tables of 3 and
// 4 fill in order.
func TestByesAndBigTables(t *testing.T) {
	es := []string{"a", "b", "c", "d", "e", "f", "g"}
	if got := tables(Swiss(es, History{}, 3)); got != "[[a b c] [d e f] [g]]" {
		t.Fatalf("tables of 3: %s", got)
	}
	// 7 at tables of 4: three byes, to the last three.
	if got := tables(Swiss(es, History{}, 4)); got != "[[a b c d] [e] [f] [g]]" {
		t.Fatalf("tables of 4: %s", got)
	}
	h := History{Byes: []string{"g"}}
	// All 0 but g (1): order g a b c d e f; one bye (7 % 2), to the last
	// who has not had one: f.
	if got := tables(Swiss(es, h, 2)); got != "[[g a] [b c] [d e] [f]]" {
		t.Fatalf("second bye: %s", got)
	}
	all := History{Byes: []string{"a", "b", "c"}}
	// All have had one (1 point each, Buchholz 0): the last in the order, c.
	if got := tables(Swiss([]string{"a", "b", "c"}, all, 2)); got != "[[a b] [c]]" {
		t.Fatalf("everyone had a bye: %s", got)
	}
}

func TestRoundRobinSeatsAndPoints(t *testing.T) {
	if got := tables(RoundRobin([]string{"c", "a", "b"})); got != "[[a b] [a c] [b c]]" {
		t.Fatalf("round robin: %s", got)
	}
	if got := fmt.Sprint(Seats(Table{"p", "q", "r", "s"}, true)); got != "[p q s r]" {
		t.Fatalf("pairs seats: %s", got)
	}
	if got := fmt.Sprint(Seats(Table{"p", "q", "r", "s"}, false)); got != "[p q r s]" {
		t.Fatalf("alone seats: %s", got)
	}
	for _, c := range []struct {
		teams, ranks []int
		want         string
	}{
		{[]int{0, 1}, []int{1, 2}, "[1 0]"},
		{[]int{0, 1, 0, 1}, []int{2, 1}, "[0 1 0 1]"},
		{[]int{0, 1, 2, 3}, []int{2, 1, 4, 3}, "[2 3 0 1]"},
		{[]int{0, 1, 2, 3}, []int{1, 2, 2, 4}, "[3 1 1 0]"},
	} {
		if got := fmt.Sprint(MatchPoints(c.teams, c.ranks)); got != c.want {
			t.Errorf("MatchPoints(%v, %v) = %s, want %s", c.teams, c.ranks, got, c.want)
		}
	}
}

// Buchholz counts opponents, never partners.
func TestBuchholzLeavesPartnersOut(t *testing.T) {
	h := History{Results: []Result{{Players: []string{"a", "b", "c", "d"}, Points: []int{1, 0, 1, 0}, Teams: []int{0, 1, 0, 1}}}}
	got := fmt.Sprint(Order([]string{"a", "b", "c", "d"}, h))
	if got != "[{a 1 0 1} {c 1 0 2} {b 0 2 3} {d 0 2 4}]" {
		t.Fatalf("order: %s", got)
	}
}

// BenchmarkSwiss64: a Swiss round of 64 entrants after 5 rounds.
func BenchmarkSwiss64(b *testing.B) {
	var es []string
	for i := range 64 {
		es = append(es, fmt.Sprintf("p%02d", i))
	}
	h := History{}
	for range 5 {
		for _, tb := range Swiss(es, h, 2) {
			if len(tb) == 2 {
				h.Results = append(h.Results, Result{Players: []string(tb), Points: []int{1, 0}})
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		Swiss(es, h, 2)
	}
}

// Entrants kept apart (a block) do not meet where the pairing can avoid
// it: at tables of two the next entrant down is taken instead; at tables
// of four one of them changes tables; when nothing else is left they
// meet.
func TestSwissKeepsApart(t *testing.T) {
	apart := func(pairs ...[2]string) func(a, b string) bool {
		return func(a, b string) bool {
			for _, p := range pairs {
				if p == [2]string{a, b} || p == [2]string{b, a} {
					return true
				}
			}
			return false
		}
	}
	got := Swiss([]string{"a", "b", "c", "d"}, History{Apart: apart([2]string{"a", "b"})}, 2)
	if fmt.Sprint(got) != "[[a c] [b d]]" {
		t.Fatalf("tables of two: %v", got)
	}
	if got := Swiss([]string{"a", "b", "c", "d"}, History{}, 2); fmt.Sprint(got) != "[[a b] [c d]]" {
		t.Fatalf("without blocks: %v", got)
	}
	// a is kept apart from everyone: the pairing cannot avoid it.
	got = Swiss([]string{"a", "b"}, History{Apart: apart([2]string{"a", "b"})}, 2)
	if fmt.Sprint(got) != "[[a b]]" {
		t.Fatalf("nothing else left: %v", got)
	}
	eight := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	got = Swiss(eight, History{Apart: apart([2]string{"a", "b"}, [2]string{"g", "h"})}, 4)
	for _, tb := range got {
		if (slices.Contains(tb, "a") && slices.Contains(tb, "b")) || (slices.Contains(tb, "g") && slices.Contains(tb, "h")) {
			t.Fatalf("tables of four: %v", got)
		}
	}
	seen := map[string]bool{}
	for _, tb := range got {
		for _, p := range tb {
			seen[p] = true
		}
	}
	if len(got) != 2 || len(seen) != 8 {
		t.Fatalf("tables of four lose or repeat entrants: %v", got)
	}
}
