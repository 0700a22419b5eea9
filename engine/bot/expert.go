package bot

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"tessera/engine"
)

// ExpertPlayouts is the expert's budget: worlds sampled and playouts run
// for every observed, whatever the number of candidates (as HardPlayouts;
// docs/bots.md, "expert").
const ExpertPlayouts = 2400

// expertBeta is how sharply the model of the others' play prefers its
// best-scoring move: the chance of a play is proportional to
// exp(expertBeta x its score). 0 weighs every world alike (hard's uniform
// sampling). Chosen on seed 11 of the arena against hard (0.3: 51.5%, 1:
// 54.2%, 3: 53.8% of 400 matches; docs/bots.md), checked on seed 21.
const expertBeta = 1.0

// Expert is the "expert" level: hard's search over worlds sampled
// consistent with what the seat has seen, each world weighted by how
// likely the other seats' plays of this hand were in it under a fast
// model of play (docs/bots.md, "expert").
func Expert(v *engine.View, seed uint64) (engine.Move, bool) {
	mv, ok, _ := expert(v, seed, ExpertPlayouts, expertBeta)
	return mv, ok
}

func expert(v *engine.View, seed uint64, budget int, beta float64) (engine.Move, bool, work) {
	p, legal, mv, ok := searchable(v, seed)
	if p == nil {
		return mv, ok, work{}
	}
	mv, w := expertSearch(p, legal, seed, budget, beta, nil)
	return mv, true, w
}

// expertSearch is the expert's decision on p among legal, with tally as
// searchWith takes it (left empty when the end of the hand was solved).
func expertSearch(p *position, legal []engine.Move, seed uint64, budget int, beta float64, tally []tally) (engine.Move, work) {
	r := newRandFor(seed)
	var weigh func([][]engine.Tile) float64
	if beta > 0 {
		weigh = newObserver(p, beta).weight
	}
	if endgame(p) {
		// The end of the hand, solved in each world (endgame.go).
		if sums, ok := solveAll(p, legal, r, newSampler(p), weigh); ok {
			best := 0
			for i, v := range sums {
				if v > sums[best] {
					best = i
				}
			}
			return legal[best], work{worlds: endWorlds, playouts: endNodes}
		}
	}
	return searchWith(p, legal, budget, r, newSampler(p), weigh, tally)
}

// newRandFor is the expert's random source for a decision's seed.
func newRandFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6578706572)) } // "exper"

// observed is a play another seat made this hand with a choice the seat
// can reconstruct: its hand then was its hand now plus the tiles it has
// played since (it drew nothing after).
type observed struct {
	seat   int
	k      int    // the play's index in the hand's plays
	later  uint32 // the tiles the seat played at index k and after
	chosen engine.PlayedTile
}

// observer weighs a sampled world by the likelihood of the other seats'
// decisions in it.
type observer struct {
	p      *position
	beta   float64
	decs   []observed
	boards []board // boards[k]: the layout before play k
	scores []float64
}

func newObserver(p *position, beta float64) *observer {
	o := &observer{p: p, beta: beta}
	spin := p.opts.Rules().Spinner
	b := newBoard(spin)
	for k, pl := range p.plays {
		o.boards = append(o.boards, b)
		b.place(pl.Tile, pl.End)
		// The lead (k = 0) follows the rule set's own opening rules: not
		// a choice this model reads.
		if pl.Seat == p.seat || k == 0 || p.drewAfter[pl.Seat] > k {
			continue
		}
		var later uint32
		for _, q := range p.plays[k:] {
			if q.Seat == pl.Seat {
				later |= bit(q.Tile)
			}
		}
		o.decs = append(o.decs, observed{seat: pl.Seat, k: k, later: later, chosen: pl})
	}
	return o
}

// weight is the likelihood of the recorded decisions in the world hands:
// the product over them of exp(beta x score(chosen)) / sum over the
// seat's legal plays then of exp(beta x score). A world in which a seat
// held a better play it did not make weighs less.
func (o *observer) weight(hands [][]engine.Tile) float64 {
	logW := 0.0
	for _, d := range o.decs {
		held := d.later
		for _, t := range hands[d.seat] {
			held |= bit(t)
		}
		b := &o.boards[d.k]
		chosen := o.beta * o.score(b, d.chosen.Tile, d.chosen.End)
		maxS, sum := chosen, 0.0
		o.scores = o.scores[:0]
		for m := held; m != 0; m &= m - 1 {
			t := tileOf[bits.TrailingZeros32(m)]
			for e := engine.EndLeft; e <= engine.EndDown; e++ {
				if b.fits(t, e) {
					s := o.beta * o.score(b, t, e)
					o.scores = append(o.scores, s)
					maxS = max(maxS, s)
				}
			}
		}
		for _, s := range o.scores {
			sum += math.Exp(s - maxS)
		}
		if sum > 0 {
			logW += chosen - maxS - math.Log(sum)
		}
	}
	return math.Exp(logW)
}

// score is the model of play: the medium player's main terms without the
// risk (count taken, pips and doubles shed).
func (o *observer) score(b *board, t engine.Tile, e engine.End) float64 {
	if !o.p.opts.Rules().Counts {
		v := wShedPipBlock * float64(t.Pips())
		if t.IsDouble() {
			v += wDoubleBlock
		}
		return v
	}
	v := float64(points(b.countAfter(t, e))) + wShedPip*float64(t.Pips())
	if t.IsDouble() {
		v += wDouble
	}
	return v
}

// ExpertWith is the expert with the model's sharpness beta in place of
// expertBeta and budget playouts in place of ExpertPlayouts, for the
// arena's measurements (beta 0: the same search over uniformly sampled
// worlds).
func ExpertWith(beta float64, budget int) Player {
	return func(v *engine.View, seed uint64) (engine.Move, bool) {
		mv, ok, _ := expert(v, seed, budget, beta)
		return mv, ok
	}
}
