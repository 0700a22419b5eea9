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

// expertBeta scales the model of the others' play (the fitted weights,
// fittedFiveUp and fittedBlock): the chance of a play is proportional to
// exp(expertBeta x its score). 1 is the model as fitted by maximum
// likelihood; 0 weighs every world alike (hard's uniform sampling).
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
	// nextHeld is how many tiles the next seat held then, as far as
	// its count now and its plays since tell.
	nextHeld int
}

// observer weighs a sampled world by the likelihood of the other seats'
// decisions in it.
type observer struct {
	p      *position
	beta   float64
	decs   []observed
	boards []board // boards[k]: the layout before play k
	scores []float64
	// weights, when set, are a fitted model of play over features, read
	// from the seat's hand in the world.
	weights *features
	feat    featurer
}

func newObserver(p *position, beta float64) *observer {
	o := &observer{p: p, beta: beta, weights: &fittedBlock}
	if p.opts.Rules().Counts {
		o.weights = &fittedFiveUp
	}
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
		// What the seat played from here on, and how many tiles the next
		// seat held then (its count now and its plays since).
		next := (pl.Seat + 1) % p.opts.Players
		var later uint32
		nextHeld := p.held[next]
		for _, q := range p.plays[k:] {
			switch q.Seat {
			case pl.Seat:
				later |= bit(q.Tile)
			case next:
				nextHeld++
			}
		}
		o.decs = append(o.decs, observed{seat: pl.Seat, k: k, later: later, chosen: pl, nextHeld: nextHeld})
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
		chosen := o.beta * o.scoreIn(d, held, b, d.chosen.Tile, d.chosen.End)
		maxS, sum := chosen, 0.0
		o.scores = o.scores[:0]
		for m := held; m != 0; m &= m - 1 {
			t := tileOf[bits.TrailingZeros32(m)]
			for e := engine.EndLeft; e <= engine.EndDown; e++ {
				if b.fits(t, e) {
					s := o.beta * o.scoreIn(d, held, b, t, e)
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

// scoreIn is the model's score of d's seat playing t at e when it held
// held: with weights (a fitted model), their sum over the play's
// features; else score.
func (o *observer) scoreIn(d observed, held uint32, b *board, t engine.Tile, e engine.End) float64 {
	if o.weights == nil {
		return o.score(b, t, e)
	}
	var f features
	o.feat.of(&f, o.p.opts, d.seat, d.k, held, d.nextHeld, b, t, e)
	v := 0.0
	for i, x := range f {
		v += o.weights[i] * x
	}
	return v
}

// fittedFiveUp and fittedBlock are the model of play: weights of the
// features, fitted by maximum likelihood to the hard player's decisions
// (40 matches of hard players at every seat, 2-player Five Up and the
// partnership game; BenchmarkInference prints them, docs/bots.md,
// "inference"). Rounded to two places.
var (
	fittedFiveUp = features{0.30, 0.066, 1.39, 0.025, -0.038, -0.39, 0, 0.48}
	fittedBlock  = features{0, 0.13, 1.01, -0.29, 0.055, 0, 0, 0.70}
)

// features are what the fitted model of play reads of a play: the count
// it takes, its pips, a double, own tiles left that fit the ends after it
// (up to 3), none fitting, the best count the next seat (an opponent) is
// expected to take in reply as the player saw it, ending the hand, and own
// tiles left showing the number the play opens.
type features [nFeatures]float64

const nFeatures = 8

// featurer computes features, keeping the scoring answers to a play on a
// layout (they depend on the layout and the play alone).
type featurer struct {
	replies map[int32][]answer
}

// of fills f for seat, holding held, playing t at e on b (the layout
// before play k of the hand), the next seat holding nextHeld tiles.
func (fr *featurer) of(f *features, o engine.Options, seat, k int, held uint32, nextHeld int, b *board, t engine.Tile, e engine.End) {
	*f = features{}
	after := *b
	after.place(t, e)
	counts := o.Rules().Counts
	if counts {
		f[0] = float64(points(after.count()))
	}
	f[1] = float64(t.Pips())
	if t.IsDouble() {
		f[2] = 1
	}
	rest := held &^ bit(t)
	if rest == 0 {
		f[6] = 1
		return
	}
	follow := bits.OnesCount32(rest & showing(after.openNumbers()))
	f[3] = float64(min(follow, 3))
	if follow == 0 {
		f[4] = 1
	}
	// The number the play opens (the lead: both its numbers).
	open := numbers(t)
	if e != engine.EndLead {
		open = 1 << after.ends[e-engine.EndLeft].pips
	}
	f[7] = float64(min(bits.OnesCount32(rest&showing(open)), 3))
	next := (seat + 1) % o.Players
	if !counts || o.TeamOf(next) == o.TeamOf(seat) {
		return
	}
	unseen := allTiles &^ b.laid &^ held
	n := bits.OnesCount32(unseen)
	if n == 0 {
		return
	}
	pr := min(float64(nextHeld)/float64(n), 1)
	key := int32(k)<<8 | int32(tileIdx[t[0]][t[1]])<<3 | int32(e)
	ans, ok := fr.replies[key]
	if !ok {
		ans = scoringReplies(&after, allTiles&^after.laid, nil)
		if fr.replies == nil {
			fr.replies = map[int32][]answer{}
		}
		fr.replies[key] = ans
	}
	f[5] = expectedBest(ans, unseen, pr)
}

// score is the first model of play, kept to measure against (observer
// without weights; BenchmarkInference "main1"): the medium player's main
// terms without the risk (count taken, pips and doubles shed).
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
