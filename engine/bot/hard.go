package bot

import (
	"cmp"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"

	"tessera/engine"
)

// HardPlayouts is the hard player's budget: the worlds it samples and the
// playouts it runs for every decision, whatever the number of candidate
// moves. The playouts are shared among the candidates (each is played in
// the same HardPlayouts/n sampled worlds). It is sized so that a decision
// takes well under 150 ms on one core here (docs/bots.md).
//
// The work is the same with one legal play as with many: a forced play is
// still thought about, and the worlds and playouts the candidates leave over
// are run and thrown away, so the time a decision takes does not tell the
// other seats how many plays the hard player had (docs/bots.md, "timing").
const HardPlayouts = 1200

// matchWin is what reaching the match target is worth in a playout, on top
// of the hand's points: more than any hand can bring.
const matchWin = 100

// Hard is the "hard" level: determinized Monte Carlo over the hidden tiles
// with HardPlayouts playouts (see the package documentation).
func Hard(v *engine.View, seed uint64) (engine.Move, bool) {
	mv, ok, _ := hard(v, seed, HardPlayouts, false)
	return mv, ok
}

// work is what one hard decision did: worlds sampled and playouts run.
type work struct{ worlds, playouts int }

// hard decides with a budget of playouts (and as many sampled worlds),
// which it spends whole whenever the seat has a play to choose, even a
// forced one. The redeal question is answered by its rule at once: that it
// is asked is public. With fair, the playouts read the risk as the mover
// sees it (rollout; the arena's hard-fair).
func hard(v *engine.View, seed uint64, budget int, fair bool) (engine.Move, bool, work) {
	p, legal, mv, ok := searchable(v, seed)
	if p == nil {
		return mv, ok, work{}
	}
	p.fair = fair
	r := rand.New(rand.NewPCG(seed, 0x68617264))
	mv, w := searchWith(p, legal, budget, r, newSampler(p), nil, nil)
	return mv, true, w
}

// searchable is what the searching players (hard, expert, omniscient)
// share before they search: the position and legal plays to search, or
// (p nil) the move to make without searching: the redeal question and a
// view without a readable position are the medium player's, no legal
// play is no move.
func searchable(v *engine.View, seed uint64) (p *position, legal []engine.Move, mv engine.Move, ok bool) {
	if v == nil || v.You == nil || v.You.Confirm {
		mv, ok = Medium(v, seed)
		return nil, nil, mv, ok
	}
	if legal = legalMoves(v); len(legal) == 0 {
		return nil, nil, engine.Move{}, false
	}
	p, err := readPosition(v)
	if err != nil {
		mv, ok = Medium(v, seed)
		return nil, nil, mv, ok
	}
	return p, legal, engine.Move{}, true
}

// dealer deals the hidden tiles into a world: hands (one slice per seat,
// reused) and the boneyard in drawing order.
type dealer interface {
	sample(r *rand.Rand, hands [][]engine.Tile) []engine.Tile
}

// searchWith plays every candidate out in the same budget/n worlds deal
// gives and returns the one with the best total, each world's playouts
// weighted by weigh(its hands) (nil: all alike). It then samples the rest
// of the budget's worlds and runs the rest of its playouts, whose results
// are not used: the work is budget worlds and budget playouts for any n.
// With tally (one per candidate, nil: none), it adds up what each
// candidate's playouts brought (advice.go).
func searchWith(p *position, legal []engine.Move, budget int, r *rand.Rand, sa dealer, weigh func([][]engine.Tile) float64, tally []tally) (engine.Move, work) {
	n := len(legal)
	worlds := max(budget/n, 1)
	sums := make([]float64, n)
	hands := make([][]engine.Tile, p.opts.Players)
	var scores [4]int
	copy(scores[:], p.scores)
	b := boardOf(p.plays, p.opts.Rules().Spinner)
	var done work
	var waste float64
	for w := 0; w < max(worlds, budget); w++ {
		bone := sa.sample(r, hands)
		done.worlds++
		base, err := engine.NewSim(p.opts, p.plays, hands, bone, p.seat)
		if err != nil {
			continue // cannot happen: the world is a partition of the unseen tiles
		}
		wgt := 1.0
		if weigh != nil {
			wgt = weigh(hands) // computed for the wasted worlds too: the same work for any n
		}
		for i, mv := range legal {
			switch {
			case w < worlds:
				sims := *base
				v, gain := playout(&sims, b, mv, p, &scores)
				sums[i] += wgt * v
				if tally != nil {
					tally[i].add(p, wgt, &scores, &gain)
				}
			case done.playouts < budget:
				sims := *base
				v, _ := playout(&sims, b, mv, p, &scores)
				waste += v
			default:
				continue
			}
			done.playouts++
		}
	}
	runtime.KeepAlive(waste)
	best, bestV := 0, math.Inf(-1)
	for i, s := range sums {
		if s > bestV {
			best, bestV = i, s
		}
	}
	return legal[best], done
}

// playout plays mv and then the rest of the hand with the rollout policy,
// and returns the seat's team's points minus the mean of the other teams'
// (count and hand-end points), plus or minus matchWin when a team reaches
// the target; and what each team gained in the hand.
func playout(s *engine.Sim, b board, mv engine.Move, p *position, scores *[4]int) (float64, [4]int) {
	me := p.opts.TeamOf(p.seat)
	var gain [4]int
	var buf [32]engine.Move
	for {
		if v, done := step(s, mv, p.opts, me, &gain, scores); done {
			return v, gain
		}
		b.place(mv.Tile, mv.End)
		mv = rollout(s, &b, p.opts, p.fair, buf[:0])
	}
}

// step plays mv for the seat to play on s, adds its points to gain (by
// team) and passes the turn on (forced draws and passes included). When
// the hand or the match ends with it, it returns the value of what gain
// holds for team me (hand-end points counted; matchWin when a team
// reached the target) and true; else false. The playouts and the
// end-of-hand solver (endgame.go) both advance a hand with it.
func step(s *engine.Sim, mv engine.Move, o engine.Options, me int, gain, scores *[4]int) (float64, bool) {
	mover := s.Turn()
	pts, err := s.Play(mv.Tile, mv.End)
	if err != nil {
		return math.Inf(-1), true
	}
	t := o.TeamOf(mover)
	gain[t] += pts
	if scores[t]+gain[t] >= o.Target {
		return final(gain, me, o.Teams()) + win(t == me), true
	}
	if !s.Over() {
		s.Advance()
	}
	if !s.Over() {
		return 0, false
	}
	res, _ := s.Outcome()
	if res.Team >= 0 {
		gain[res.Team] += res.Points
		if scores[res.Team]+gain[res.Team] >= o.Target {
			return final(gain, me, o.Teams()) + win(res.Team == me), true
		}
	}
	return final(gain, me, o.Teams()), true
}

func win(mine bool) float64 {
	if mine {
		return matchWin
	}
	return -matchWin
}

// final is the team's gain minus the mean gain of the other teams.
func final(gain *[4]int, me, teams int) float64 {
	others := 0
	for t := 0; t < teams; t++ {
		if t != me {
			others += gain[t]
		}
	}
	return float64(gain[me]) - float64(others)/float64(teams-1)
}

// rollout is the playout policy, the medium player's main terms on the
// sampled world: the count taken, pips and doubles shed, and (Five Up) the
// best count the next seat, an opponent, can take in reply with the tiles it
// holds in this world. Inside a world every hand is known, so the medium
// player's reading of passes and draws has nothing left to add. With fair
// (a measurement: the arena's hard-fair), the reply is read as the mover
// sees it instead: the next seat may hold any tile the mover cannot see
// (neither on the layout nor its own), each with the same chance.
func rollout(s *engine.Sim, b *board, o engine.Options, fair bool, buf []engine.Move) engine.Move {
	legal := s.AppendLegal(buf)
	if len(legal) == 1 {
		return legal[0]
	}
	fiveUp := o.Rules().Counts
	var opp []engine.Tile
	var unseen uint32
	pr := 0.0
	if next := (s.Turn() + 1) % o.Players; fiveUp && o.TeamOf(next) != o.TeamOf(s.Turn()) {
		if !fair {
			opp = s.Held(next)
		} else {
			unseen = allTiles &^ b.laid
			for _, t := range s.Held(s.Turn()) {
				unseen &^= bit(t)
			}
			if n := bits.OnesCount32(unseen); n > 0 {
				pr = min(float64(s.HeldCount(next))/float64(n), 1)
			}
		}
	}
	best, bestV := legal[0], math.Inf(-1)
	for _, mv := range legal {
		var v float64
		if fiveUp {
			after := *b
			after.place(mv.Tile, mv.End)
			v = float64(points(after.count())) + wShedPip*float64(mv.Tile.Pips())
			if mv.Tile.IsDouble() {
				v += wDouble
			}
			if len(opp) > 0 {
				v -= wRisk * float64(bestReply(&after, opp))
			}
			if pr > 0 {
				v -= wRisk * expectedReply(&after, unseen&^bit(mv.Tile), pr)
			}
		} else {
			v = wShedPipBlock * float64(mv.Tile.Pips())
			if mv.Tile.IsDouble() {
				v += wDoubleBlock
			}
		}
		if v > bestV {
			best, bestV = mv, v
		}
	}
	return best
}

// expectedReply is the expected best count a seat takes in reply on b when
// it holds each tile of may independently with chance pr.
func expectedReply(b *board, may uint32, pr float64) float64 {
	var buf [engine.NumTiles]answer
	return expectedBest(scoringReplies(b, may, buf[:0]), may, pr)
}

// answer is a tile that scores when played next, and what.
type answer struct {
	mask uint32
	pts  float64
}

// scoringReplies appends to dst the tiles of may that score when played
// next on b, best first.
func scoringReplies(b *board, may uint32, dst []answer) []answer {
	for m := may; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		if c := bestCount(b, tileOf[i]); c > 0 {
			dst = append(dst, answer{1 << i, float64(c)})
		}
	}
	slices.SortStableFunc(dst, func(a, b answer) int { return cmp.Compare(b.pts, a.pts) })
	return dst
}

// expectedBest is the expected best of replies (best first) when each
// tile of held is held independently with chance pr: the sum of v_i pr
// (1 - pr)^(number of better ones held before it).
func expectedBest(replies []answer, held uint32, pr float64) float64 {
	exp, none := 0.0, 1.0
	for _, a := range replies {
		if held&a.mask != 0 {
			exp += a.pts * pr * none
			none *= 1 - pr
		}
	}
	return exp
}

// bestCount is the most a play of t scores on b (0: none scores or fits).
func bestCount(b *board, t engine.Tile) int {
	best := 0
	for e := engine.EndLeft; e <= engine.EndDown; e++ {
		if b.fits(t, e) {
			best = max(best, points(b.countAfter(t, e)))
		}
	}
	return best
}

// bestReply is the most a seat holding tiles can score with its next play
// on b.
func bestReply(b *board, tiles []engine.Tile) int {
	best := 0
	for _, t := range tiles {
		best = max(best, bestCount(b, t))
	}
	return best
}
