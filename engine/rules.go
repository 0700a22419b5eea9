package engine

import "fmt"

// RuleSet is one rule set as a value: everything the engine, the computer
// players, the service and the page ask of a variant. Each rule set is one
// file (fiveup.go, partnership.go, block.go) and one line of ruleSets;
// nothing else names a variant.
type RuleSet struct {
	Variant Variant
	// Name is API.md's word for it ("fiveup"), Title how people call it.
	Name  string
	Title string
	// DefaultPlayers, DefaultPairs, DefaultTarget and DefaultRedeal are the
	// options a create request leaves out.
	DefaultPlayers int
	DefaultPairs   bool
	DefaultTarget  int
	DefaultRedeal  bool
	// Spinner: the first double of a hand spins (opens up and down arms).
	Spinner bool
	// Counts: after every play the open ends' total scores when it is a
	// positive multiple of 5 (so scores change mid-hand).
	Counts bool
	// Draw: the tiles not dealt are a boneyard a seat that cannot play draws
	// from; without it they stay face down and out of play.
	Draw bool
	// RoundToFive: hand-end points are rounded to the nearest 5.
	RoundToFive bool
	// Clockwise: how the page draws the turn (seat s+1 follows seat s
	// either way).
	Clockwise bool
	// Pools are the rating pools its games are rated in (API.md
	// "Ratings"), in API.md's order; none for a rule set that is never
	// rated. Pool picks the one of a game with these options (nil: never
	// rated).
	Pools []Pool
	Pool  func(o Options) *Pool

	// validate checks the options beyond the target (players, pairs,
	// redeal); the error's text follows ErrBadInput.
	validate func(o Options) string
	// firstLead is the seat that leads hand 1 and the tile it must lead
	// (noTile: any), given the dealt order and the seed's random draw.
	firstLead func(o Options, order *[NumTiles]uint8, drawn int) (seat int, tile Tile)
	// blocked scores a blocked hand (res holds the revealed tiles and
	// reason) and names the next leader.
	blocked func(s *Sim, res Result) (Result, int)
}

// Pool is one rating pool: its name (API.md) and how a match's teams
// rank for the rating update: the winner first and every other team
// second, or (ByScore) the others after it by their final scores.
type Pool struct {
	Name    string
	ByScore bool
}

// Pools lists every rating pool of every rule set, in API.md's order
// (the rule sets' order, then each one's).
func Pools() []Pool {
	var out []Pool
	for _, r := range RuleSets() {
		out = append(out, r.Pools...)
	}
	return out
}

// ruleSets is the registry: one line per rule set, indexed by Variant.
var ruleSets = [...]*RuleSet{
	FiveUp:      &fiveUp,
	Partnership: &partnership,
	Block:       &block,
}

// RuleSets lists every rule set the engine plays, in Variant order.
func RuleSets() []*RuleSet {
	var out []*RuleSet
	for _, r := range ruleSets {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// Rules is the rule set of a variant, nil for an unknown one.
func (v Variant) Rules() *RuleSet {
	if int(v) < len(ruleSets) {
		return ruleSets[v]
	}
	return nil
}

// Rules is the rule set these options play (nil for an unknown variant).
func (o Options) Rules() *RuleSet { return o.Variant.Rules() }

// DefaultOptions returns the defaults of a rule set (an unknown variant's
// are Five Up's).
func DefaultOptions(v Variant) Options {
	r := v.Rules()
	if r == nil {
		r = &fiveUp
	}
	return Options{Variant: r.Variant, Players: r.DefaultPlayers, Pairs: r.DefaultPairs,
		Target: r.DefaultTarget, Redeal: r.DefaultRedeal}
}

// Validate checks the options against the rule set; the error wraps
// ErrBadInput.
func (o Options) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadInput}, a...)...)
	}
	if o.Target < 1 || o.Target > MaxTarget {
		return bad("target must be 1..%d", MaxTarget)
	}
	r := o.Rules()
	if r == nil {
		return bad("unknown variant")
	}
	if why := r.validate(o); why != "" {
		return bad("%s", why)
	}
	return nil
}

// randomFirstLead is the seat the seed drew, leading any tile.
func randomFirstLead(_ Options, _ *[NumTiles]uint8, drawn int) (int, Tile) { return drawn, noTile }

// lowestSeatWins scores a blocked hand for seats alone or in pairs: the seat
// with the fewest pips wins, walking in turn order from the seat after the
// last play (so of partners tied for fewest the first in that order wins),
// and its team scores every opponent's pips (rounded when the rule set
// rounds). tieVoids: seats of different teams tied for fewest void the hand
// (nobody scores; the lead passes to the seat after the previous leader);
// otherwise the first tied seat in that order wins, so the seat that blocked
// the game loses a tie.
func lowestSeatWins(s *Sim, res Result, tieVoids bool) (Result, int) {
	least, winner, tie := 1<<30, -1, false
	for k := 1; k <= s.n; k++ {
		seat := (s.lastPlayer + k) % s.n
		p := handPips(s.held[seat])
		switch {
		case p < least:
			least, winner, tie = p, seat, false
		case p == least && s.opts.TeamOf(seat) != s.opts.TeamOf(winner):
			tie = true
		}
	}
	if tie && tieVoids {
		return res, (s.leader + 1) % s.n
	}
	res.Team = s.opts.TeamOf(winner)
	res.Points = s.handPoints(s.opponentPips(res.Team))
	return res, winner
}

// Table is one table configuration of a rule set, by name.
type Table struct {
	Name    string
	Options Options
}

// Tables lists every table configuration of every rule set: each player
// count and pairs value the rule set allows, its other options at their
// defaults. A rule set with one configuration is named by its name alone
// ("partnership"), others by name and players ("fiveup2", "fiveup4pairs").
// The property tests and the arena play every one.
func Tables() []Table {
	var out []Table
	for _, r := range RuleSets() {
		var ts []Table
		for n := 2; n <= 4; n++ {
			for _, pairs := range []bool{false, true} {
				o := DefaultOptions(r.Variant)
				o.Players, o.Pairs = n, pairs
				if o.Validate() != nil {
					continue
				}
				name := fmt.Sprintf("%s%d", r.Name, n)
				if pairs {
					name += "pairs"
				}
				ts = append(ts, Table{name, o})
			}
		}
		if len(ts) == 1 {
			ts[0].Name = r.Name
		}
		out = append(out, ts...)
	}
	return out
}
