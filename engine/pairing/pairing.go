// Package pairing seats a tournament's rounds (API.md "Tournaments"):
// the standings (points, then Buchholz, then player id), a Swiss round's
// byes and tables, and a round robin's games. Written from API.md's
// statement of the rules; pure functions, no I/O.
package pairing

import (
	"slices"
	"sort"
)

// Table is one game of a round: its players in seat order. A bye is a
// table of one.
type Table []string

// Result is a decided table: each player's points (the number of
// opponents their team finished ahead of), indexed as the table's seats.
type Result struct {
	Players []string
	Points  []int
	// Teams gives each seat's team (partners share one); nil means every
	// seat is its own team.
	Teams []int
}

// History is what the standings and pairings need of the rounds before:
// the decided tables, and who had a bye (and in which round, for the
// points: a bye is worth 1).
type History struct {
	Results []Result
	Byes    []string // one entry per bye given
	// Apart reports two entrants to keep apart where the pairing can (a
	// block between them); nil for none.
	Apart func(a, b string) bool
}

// apart is h.Apart, false without one.
func (h History) apart(a, b string) bool { return h.Apart != nil && h.Apart(a, b) }

// Standing is one entrant's line.
type Standing struct {
	Player   string
	Points   int
	Buchholz int
	Rank     int
}

// Points are each entrant's points so far: decided tables and byes.
func (h History) Points() map[string]int {
	p := map[string]int{}
	for _, r := range h.Results {
		for i, pl := range r.Players {
			p[pl] += r.Points[i]
		}
	}
	for _, b := range h.Byes {
		p[b]++
	}
	return p
}

// opponents lists, for each of r's seats, the seats of the other teams.
func (r Result) opponents(i int) []int {
	var out []int
	for j := range r.Players {
		if j != i && (r.Teams == nil || r.Teams[j] != r.Teams[i]) {
			out = append(out, j)
		}
	}
	return out
}

// Order is the entrants in the tournament's order: by points, then
// Buchholz (the sum, over every decided game they played, of the points
// of each opponent at that table now; partners are not opponents, byes
// add nothing), then player id. Ranks count from 1.
func Order(entrants []string, h History) []Standing {
	pts := h.Points()
	buch := map[string]int{}
	for _, r := range h.Results {
		for i, pl := range r.Players {
			for _, j := range r.opponents(i) {
				buch[pl] += pts[r.Players[j]]
			}
		}
	}
	out := make([]Standing, len(entrants))
	for i, e := range entrants {
		out[i] = Standing{Player: e, Points: pts[e], Buchholz: buch[e]}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		if a.Buchholz != b.Buchholz {
			return a.Buchholz > b.Buchholz
		}
		return a.Player < b.Player
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// met reports whether a and b sat at one table before.
func (h History) met(a, b string) bool {
	for _, r := range h.Results {
		if slices.Contains(r.Players, a) && slices.Contains(r.Players, b) {
			return true
		}
	}
	return false
}

// Swiss seats the next round of entrants at tables of size: round 1 (an
// empty history) by player id alone, later rounds in Order. Byes first,
// when the entrants do not fill whole tables: to the last entrants in the
// order who have not had one (when all have, the last ones). Then from
// the top: with 2 a table, the first unpaired entrant meets the first
// unpaired one below them they have not met and are not kept apart from
// (else the first not kept apart, else the first not met, else the first
// unpaired one); with 3 or 4, the tables are filled in order, then a
// table holding two entrants kept apart swaps one of them with an entrant
// of another table for whom neither table holds such a pair. Byes come
// back as tables of one, after the games.
func Swiss(entrants []string, h History, size int) []Table {
	order := make([]string, 0, len(entrants))
	if len(h.Results) == 0 && len(h.Byes) == 0 {
		order = append(order, entrants...)
		sort.Strings(order)
	} else {
		for _, s := range Order(entrants, h) {
			order = append(order, s.Player)
		}
	}
	byes := len(order) % size
	had := map[string]bool{}
	for _, b := range h.Byes {
		had[b] = true
	}
	bye := map[string]bool{}
	for i := len(order) - 1; i >= 0 && len(bye) < byes; i-- {
		if !had[order[i]] {
			bye[order[i]] = true
		}
	}
	for i := len(order) - 1; i >= 0 && len(bye) < byes; i-- {
		bye[order[i]] = true
	}
	var rest []string
	for _, p := range order {
		if !bye[p] {
			rest = append(rest, p)
		}
	}
	var tables []Table
	if size == 2 {
		paired := make([]bool, len(rest))
		for i := range rest {
			if paired[i] {
				continue
			}
			pick := -1
			for _, ok := range []func(a, b string) bool{
				func(a, b string) bool { return !h.met(a, b) && !h.apart(a, b) },
				func(a, b string) bool { return !h.apart(a, b) },
				func(a, b string) bool { return !h.met(a, b) },
				func(a, b string) bool { return true },
			} {
				for j := i + 1; j < len(rest) && pick < 0; j++ {
					if !paired[j] && ok(rest[i], rest[j]) {
						pick = j
					}
				}
				if pick >= 0 {
					break
				}
			}
			if pick < 0 {
				break // cannot happen: the byes left an even count
			}
			paired[i], paired[pick] = true, true
			tables = append(tables, Table{rest[i], rest[pick]})
		}
	} else {
		for i := 0; i+size <= len(rest); i += size {
			tables = append(tables, slices.Clone(Table(rest[i:i+size])))
		}
		h.separate(tables)
	}
	for _, p := range order {
		if bye[p] {
			tables = append(tables, Table{p})
		}
	}
	return tables
}

// clash reports whether table t holds two entrants kept apart.
func (h History) clash(t Table) bool {
	for i := range t {
		for j := i + 1; j < len(t); j++ {
			if h.apart(t[i], t[j]) {
				return true
			}
		}
	}
	return false
}

// separate swaps entrants between tables so that fewer tables hold two
// entrants kept apart: for each such table, the first swap of one of its
// entrants with one of another table after which neither table clashes.
func (h History) separate(tables []Table) {
	if h.Apart == nil {
		return
	}
	for a := range tables {
		if !h.clash(tables[a]) {
			continue
		}
	swap:
		for b := range tables {
			if b == a {
				continue
			}
			for i := range tables[a] {
				for j := range tables[b] {
					tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
					if !h.clash(tables[a]) && !h.clash(tables[b]) {
						break swap
					}
					tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
				}
			}
		}
	}
}

// RoundRobin is every pair of entrants once, the first by player id at
// seat 0, in order of the first's id then the second's.
func RoundRobin(entrants []string) []Table {
	ids := slices.Clone(entrants)
	sort.Strings(ids)
	var out []Table
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			out = append(out, Table{ids[i], ids[j]})
		}
	}
	return out
}

// Seats puts a table's players in their seats: in the order named, except
// in a pairs game, where the table's first and fourth sit together (seats
// 0 and 2) against the second and third (seats 1 and 3).
func Seats(t Table, pairs bool) []string {
	if pairs && len(t) == 4 {
		return []string{t[0], t[1], t[3], t[2]}
	}
	return slices.Clone(t)
}

// MatchPoints gives each seat the number of opposing sides its team
// finished ahead of, from the teams' ranks (1 is best; equal ranks tie): a
// two-sided win is 1, a loss 0; four players alone 3, 2, 1 or 0.
func MatchPoints(teamOf []int, ranks []int) []int {
	out := make([]int, len(teamOf))
	for i, ti := range teamOf {
		for t, r := range ranks {
			if t != ti && ranks[ti] < r {
				out[i]++
			}
		}
	}
	return out
}
