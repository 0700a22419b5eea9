package bot

import (
	"math"
	"math/rand/v2"
	"runtime"

	"tessera/engine"
)

// The end of a hand solved exactly (the expert): when two teams play, the
// boneyard is empty and at most endTiles tiles are left in all hands, each
// of endWorlds sampled worlds (weighted as the expert weighs them) is
// solved by alpha-beta over the rest of the hand, both teams playing
// their best with every hand known in that world, in place of playouts.
const (
	endTiles  = 8
	endWorlds = 64
	// endNodes is the solves' node budget for one decision. The work is
	// always the whole budget (what the solves leave is spent on copies of
	// the position, as a solve's node is), so the time tells nothing of
	// the solves' size; when the budget runs out first the expert falls
	// back to its playouts.
	endNodes = 200000
)

// endgame reports whether p's hand is at its end for the solver.
func endgame(p *position) bool {
	if p.opts.Teams() != 2 || (p.opts.Rules().Draw && p.boneyard > 0) {
		return false
	}
	n := 0
	for s := 0; s < p.opts.Players; s++ {
		n += p.held[s]
	}
	return n <= endTiles
}

// solver is one decision's exact solves.
type solver struct {
	p     *position
	me    int
	nodes int
	buf   [][32]engine.Move // per depth
}

// errBudget marks a solve the node budget cut short (no value is +Inf).
var errBudget = math.Inf(1)

// solveAll scores every candidate in endWorlds worlds (each world's
// values weighted by weigh, nil: alike); false when the node budget ran
// out (the caller falls back to playouts).
func solveAll(p *position, legal []engine.Move, r *rand.Rand, sa dealer, weigh func([][]engine.Tile) float64) ([]float64, bool) {
	sv := &solver{p: p, me: p.opts.TeamOf(p.seat), buf: make([][32]engine.Move, endTiles+2)}
	sums := make([]float64, len(legal))
	hands := make([][]engine.Tile, p.opts.Players)
	var scores [4]int
	copy(scores[:], p.scores)
	ok := true
	var last *engine.Sim
	sink := 0
	for w := 0; w < endWorlds && ok; w++ {
		bone := sa.sample(r, hands)
		base, err := engine.NewSim(p.opts, p.plays, hands, bone, p.seat)
		if err != nil {
			continue
		}
		last = base
		wgt := 1.0
		if weigh != nil {
			wgt = weigh(hands)
		}
		for i, mv := range legal {
			s := *base
			v := sv.after(&s, mv, [4]int{}, &scores, 0, math.Inf(-1), math.Inf(1))
			if v == errBudget {
				ok = false
				break
			}
			sums[i] += wgt * v
		}
	}
	if ok && last != nil {
		// The rest of the budget, spent as a node is (a copy of the
		// position and its legal moves): the same time whatever the solves
		// needed.
		for ; sv.nodes < endNodes; sv.nodes++ {
			c := *last
			sink += len(c.AppendLegal(sv.buf[0][:0]))
		}
	}
	runtime.KeepAlive(sink)
	return sums, ok
}

// after plays mv on s and returns the value of the rest of the hand for
// the solver's team (as a playout values it: step), or errBudget.
func (sv *solver) after(s *engine.Sim, mv engine.Move, gain [4]int, scores *[4]int, depth int, alpha, beta float64) float64 {
	if sv.nodes++; sv.nodes > endNodes {
		return errBudget
	}
	o := sv.p.opts
	if v, done := step(s, mv, o, sv.me, &gain, scores); done {
		return v
	}
	legal := s.AppendLegal(sv.buf[depth+1][:0])
	maxing := o.TeamOf(s.Turn()) == sv.me
	best := math.Inf(1)
	if maxing {
		best = math.Inf(-1)
	}
	for _, next := range legal {
		c := *s
		v := sv.after(&c, next, gain, scores, depth+1, alpha, beta)
		if v == errBudget {
			return errBudget
		}
		if maxing {
			best = max(best, v)
			alpha = max(alpha, v)
		} else {
			best = min(best, v)
			beta = min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	return best
}
