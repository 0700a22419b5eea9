package bot

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"tessera/engine"
)

// Weights of the medium player's move evaluation, in points of the match.
const (
	wShedPip      = 0.12 // per pip played: heavy tiles cost most if caught
	wShedPipBlock = 0.5  // the same in the block game, where pips are all that score
	wDouble       = 2.0  // doubles are hard to place later
	wDoubleBlock  = 3.0
	wRisk         = 0.8  // the count the next opponent is expected to take
	wFollow       = 0.7  // per own tile (up to 3) that fits the ends after the move
	wStuck        = 3.0  // no own tile fits the ends after the move
	wOppVoid      = 1.5  // an end shows a number the next opponent lacks
	wOtherVoid    = 0.5  // ... a number a later opponent lacks
	wPartnerVoid  = 1.2  // ... a number the partner lacks (blocks the partner)
	dominoBonus   = 10.0 // ending the hand, on top of the points it brings
	winNow        = 1e6  // a play that reaches the match target
	nearTarget    = 40   // points from the target at which points weigh more
)

// Medium is the "medium" level: the best move by a one-ply evaluation of
// every legal move (see the package documentation).
func Medium(v *engine.View, seed uint64) (engine.Move, bool) {
	legal, mv, ok := forced(v)
	if legal == nil {
		return mv, ok
	}
	p, err := readPosition(v)
	if err != nil {
		return legal[0], true
	}
	ev := newEvaluator(p)
	r := rand.New(rand.NewPCG(seed, 0x6d656469756d))
	best, bestV := legal[0], math.Inf(-1)
	for _, mv := range legal {
		// A tiny seeded jitter breaks exact ties without favouring the
		// first move in the list.
		val := ev.value(mv) + 1e-9*r.Float64()
		if val > bestV {
			best, bestV = mv, val
		}
	}
	return best, true
}

// forced answers what every level answers alike: nothing to do without a
// view of a seat, the redeal question by confirm, and no choice when at
// most one move is legal. It returns the legal moves (two or more) when
// there is a choice to make, and nil with the answer otherwise.
func forced(v *engine.View) (legal []engine.Move, mv engine.Move, ok bool) {
	if v == nil || v.You == nil {
		return nil, engine.Move{}, false
	}
	if v.You.Confirm {
		return nil, confirm(v.You.Tiles), true
	}
	legal = legalMoves(v)
	switch len(legal) {
	case 0:
		return nil, engine.Move{}, false
	case 1:
		return nil, legal[0], true
	}
	return legal, engine.Move{}, false
}

// legalMoves converts the view's legal list into moves.
func legalMoves(v *engine.View) []engine.Move {
	out := make([]engine.Move, 0, len(v.You.Legal))
	for _, lm := range v.You.Legal {
		if lm.End <= engine.EndDown && validTile(lm.Tile) {
			out = append(out, engine.Move{Kind: engine.Play, Tile: lm.Tile, End: lm.End})
		}
	}
	return out
}

// confirm answers the redeal question. Five doubles or more always redeal.
// With four, keep the hand only when at least two of the doubles have a
// partner tile in the hand (another tile showing that number), so that
// opening their number does not leave them stranded; else redeal.
func confirm(tiles []engine.Tile) engine.Move {
	var doubles, others []engine.Tile
	for _, t := range tiles {
		if t.IsDouble() {
			doubles = append(doubles, t)
		} else {
			others = append(others, t)
		}
	}
	if len(doubles) >= 5 {
		return engine.Move{Kind: engine.Redeal}
	}
	supported := 0
	for _, d := range doubles {
		if slices.ContainsFunc(others, func(t engine.Tile) bool { return t[0] == d[0] || t[1] == d[0] }) {
			supported++
		}
	}
	if len(doubles) >= 4 && supported < 2 {
		return engine.Move{Kind: engine.Redeal}
	}
	return engine.Move{Kind: engine.Keep}
}

// evaluator scores moves for one position.
type evaluator struct {
	p       *position
	board   board   // the layout now
	next    int     // the next seat to play after this one
	partner int     // -1 when playing alone
	avgPips float64 // mean pips of an unseen tile
}

func newEvaluator(p *position) *evaluator {
	ev := &evaluator{p: p, board: boardOf(p.plays, p.opts.Rules().Spinner), next: (p.seat + 1) % p.opts.Players, partner: -1}
	if p.opts.Pairs {
		ev.partner = (p.seat + 2) % 4
	}
	if n := bits.OnesCount32(p.unseen); n > 0 {
		ev.avgPips = float64(pipsOf(p.unseen)) / float64(n)
	}
	return ev
}

// value is the evaluation of one legal move; higher is better.
func (ev *evaluator) value(mv engine.Move) float64 {
	p := ev.p
	if !ev.board.fits(mv.Tile, mv.End) || p.hand&bit(mv.Tile) == 0 {
		return math.Inf(-1)
	}
	after := ev.board
	after.place(mv.Tile, mv.End)
	pts := points(after.count())
	rest := p.hand &^ bit(mv.Tile)
	fiveUp := p.opts.Rules().Counts
	myScore := p.scores[p.teamOf(p.seat)]
	v := 0.0
	if fiveUp {
		if myScore+pts >= p.opts.Target {
			return winNow + float64(pts)
		}
		w := 1.0
		if p.opts.Target-myScore <= nearTarget {
			w = 1.5
		}
		v += w * float64(pts)
		v += wShedPip * float64(mv.Tile.Pips())
		if mv.Tile.IsDouble() {
			v += wDouble
		}
	} else {
		v += wShedPipBlock * float64(mv.Tile.Pips())
		if mv.Tile.IsDouble() {
			v += wDoubleBlock
		}
	}
	if rest == 0 {
		return v + dominoBonus + ev.dominoPoints()
	}
	if fiveUp {
		v -= ev.risk(&after)
	}
	ends := after.openNumbers()
	follow := bits.OnesCount32(rest & showing(ends))
	if follow == 0 {
		v -= wStuck
	}
	v += wFollow * float64(min(follow, 3))
	for x := 0; x <= 6; x++ {
		if ends&(1<<x) == 0 {
			continue
		}
		for s := 0; s < p.opts.Players; s++ {
			switch {
			case s == p.seat || p.void[s]&(1<<x) == 0:
			case s == ev.partner:
				v -= wPartnerVoid
			case s == ev.next:
				v += wOppVoid
			default:
				v += wOtherVoid
			}
		}
	}
	return v
}

// dominoPoints estimates what ending the hand now scores: the opponents'
// tiles at the mean pips of an unseen tile.
func (ev *evaluator) dominoPoints() float64 {
	p := ev.p
	n := 0
	for s := 0; s < p.opts.Players; s++ {
		if p.teamOf(s) != p.teamOf(p.seat) {
			n += p.held[s]
		}
	}
	est := float64(n) * ev.avgPips
	if p.opts.Rules().RoundToFive {
		return float64(roundToFive(int(est + 0.5)))
	}
	return est
}

// risk is the count the next seat (an opponent) is expected to take on the
// layout after the move: over the unseen tiles it may hold, the expected
// best of their scoring replies, as if it held each independently with
// probability mayHold. A reply that would reach its target counts as much as
// a lost match.
func (ev *evaluator) risk(after *board) float64 {
	p := ev.p
	if p.teamOf(ev.next) == p.teamOf(p.seat) {
		return 0
	}
	type reply struct{ pts, prob float64 }
	var buf [engine.NumTiles]reply
	replies := buf[:0]
	opp := p.scores[p.teamOf(ev.next)]
	for m := p.unseen; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		prob := p.mayHold(ev.next, i)
		if prob == 0 {
			continue
		}
		if best := bestCount(after, tileOf[i]); best > 0 {
			val := float64(best)
			if opp+best >= p.opts.Target {
				val += 200
			} else if p.opts.Target-opp <= nearTarget {
				val *= 1.5
			}
			replies = append(replies, reply{val, prob})
		}
	}
	slices.SortFunc(replies, func(a, b reply) int {
		switch {
		case a.pts > b.pts:
			return -1
		case a.pts < b.pts:
			return 1
		}
		return 0
	})
	exp, none := 0.0, 1.0
	for _, r := range replies {
		exp += r.pts * r.prob * none
		none *= 1 - r.prob
	}
	return wRisk * exp
}
