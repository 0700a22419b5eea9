package game

import (
	"slices"

	"tessera/engine"
)

// Trophies (API.md "Trophies (trofei)") as a registry: each is its id and
// its rule, one line of Trophies. A rule is a pure function of a finished
// match's record (its events as they happened, noted as feats; its final
// scores and score sheet) and, for the counts and streaks, of the
// player's profile before it; a trophy with no rule is given outside a
// match (a league's season, a tournament). The page's shelf and the
// stored masks read this list: a new trophy is its line here (at the
// end: a seat's earned set is a bit mask of the indexes) and its words.
type Trophy struct {
	ID     string
	Earned func(m MatchRecord, seat int, f TrophyFacts) bool // nil: given outside a match
}

// TrophyFacts is what a seat's trophies at a match's end are decided
// from, beside the match: the seat's feats, and its player's profile
// before the match.
type TrophyFacts struct {
	Feats    byte
	Finished int  // matches finished before this one
	OnTime   int  // finished in a row without a timeout, before this one
	Streak   int  // rated wins in a row in the pool, before this one
	Rated    bool // the match is rated (in a pool)
	TimedOut bool // the seat ran out of time in it
	Owned    uint16
}

// MatchRecord is what the trophies read of a finished match: each
// seat's team, the winning team, the final scores by team, the score
// sheet (the running totals after each hand) and the target.
type MatchRecord struct {
	Teams  []int
	Winner int
	Scores []int
	Sheet  [][]int
	Target int
}

// RecordOf is m's record.
func RecordOf(m *engine.Match) MatchRecord {
	o := m.Options()
	r := MatchRecord{Winner: m.Winner(), Scores: m.Scores(), Sheet: m.Sheet(), Target: o.Target}
	for s := range o.Players {
		r.Teams = append(r.Teams, o.TeamOf(s))
	}
	return r
}

// Trophies is the registry, in API.md's order.
var Trophies = []Trophy{
	{"first-match", func(_ MatchRecord, _ int, f TrophyFacts) bool { return f.Finished+1 == 1 }},
	{"ten-matches", func(_ MatchRecord, _ int, f TrophyFacts) bool { return f.Finished+1 >= 10 }},
	{"hundred-matches", func(_ MatchRecord, _ int, f TrophyFacts) bool { return f.Finished+1 >= 100 }},
	{"domino", func(_ MatchRecord, _ int, f TrophyFacts) bool { return f.Feats&FeatDomino != 0 }},
	{"thirty", func(_ MatchRecord, _ int, f TrophyFacts) bool { return f.Feats&FeatThirty != 0 }},
	{"four-arms", func(_ MatchRecord, _ int, f TrophyFacts) bool { return f.Feats&FeatFourArms != 0 }},
	{"clean-sweep", cleanSweep},
	{"comeback", comeback},
	{"five-in-a-row", func(m MatchRecord, seat int, f TrophyFacts) bool {
		return f.Rated && m.Winner == m.Teams[seat] && f.Streak+1 >= 5
	}},
	{"on-time", func(_ MatchRecord, _ int, f TrophyFacts) bool { return !f.TimedOut && f.OnTime+1 >= 25 }},
	{"league-champion", nil},
	{"tournament-winner", nil},
}

// cleanSweep: won with every other team on 0.
func cleanSweep(m MatchRecord, seat int, _ TrophyFacts) bool {
	team := m.Teams[seat]
	if m.Winner != team {
		return false
	}
	for t, s := range m.Scores {
		if t != team && s != 0 {
			return false
		}
	}
	return true
}

// comeback: won after trailing, at some hand's end, by 40% of the target
// or more.
func comeback(m MatchRecord, seat int, _ TrophyFacts) bool {
	team := m.Teams[seat]
	if m.Winner != team {
		return false
	}
	for _, row := range m.Sheet {
		for t, s := range row {
			if t != team && team < len(row) && 10*(s-row[team]) >= 4*m.Target {
				return true
			}
		}
	}
	return false
}

// TrophyIDs are the registry's ids, in its order (the mask's bits).
var TrophyIDs = func() []string {
	out := make([]string, len(Trophies))
	for i, t := range Trophies {
		out[i] = t.ID
	}
	return out
}()

// TrophyBit is the bit of trophy id in a mask.
func TrophyBit(id string) uint16 { return 1 << slices.Index(TrophyIDs, id) }

// SeatTrophies lists the ids of a mask.
func SeatTrophies(mask uint16) []string {
	var out []string
	for i, id := range TrophyIDs {
		if mask&(1<<i) != 0 {
			out = append(out, id)
		}
	}
	return out
}
