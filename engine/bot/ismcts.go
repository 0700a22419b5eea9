package bot

import (
	"math"
	"slices"

	"tessera/engine"
)

// Information set Monte Carlo tree search (single observer, after
// Cowling, Powley and Whitehouse 2012), a measurement for the arena: one
// tree over the seat's own information, every iteration in a newly
// sampled world; the seat's later decisions are made by the tree's
// statistics over all worlds, not by a world it cannot know (the strategy
// fusion of hard's playouts). Below the tree, the playout policy.

type isNode struct {
	seat     int
	mv       engine.Move
	children []*isNode
	visits   float64
	avail    float64
	total    float64 // the sum of the values, for the seat's team
}

// ExpertISMCTS is the expert's tree search with budget iterations and
// exploration constant c, for the arena's measurements.
func ExpertISMCTS(budget int, c float64) Player {
	return func(v *engine.View, seed uint64) (engine.Move, bool) {
		p, legal, mv, ok := searchable(v, seed)
		if p == nil {
			return mv, ok
		}
		return ismcts(p, legal, seed, budget, c), true
	}
}

func ismcts(p *position, legal []engine.Move, seed uint64, budget int, c float64) engine.Move {
	r := newRandFor(seed)
	sa := newSampler(p)
	me := p.opts.TeamOf(p.seat)
	root := &isNode{seat: -1}
	for _, mv := range legal {
		root.children = append(root.children, &isNode{seat: p.seat, mv: mv})
	}
	hands := make([][]engine.Tile, p.opts.Players)
	var scores0 [4]int
	copy(scores0[:], p.scores)
	b0 := boardOf(p.plays, p.opts.Rules().Spinner)
	var buf [32]engine.Move
	path := make([]*isNode, 0, 32)
	for it := 0; it < budget; it++ {
		bone := sa.sample(r, hands)
		base, err := engine.NewSim(p.opts, p.plays, hands, bone, p.seat)
		if err != nil {
			continue
		}
		s := *base
		b := b0
		scores := scores0
		var gain [4]int
		node := root
		path = path[:0]
		var value float64
		for {
			mover := s.Turn()
			avail := s.AppendLegal(buf[:0])
			if len(avail) == 0 {
				value = final(&gain, me, p.opts.Teams())
				break
			}
			// The children legal in this world are available; an untried
			// legal move is expanded first.
			var untried []engine.Move
			for _, mv := range avail {
				found := false
				for _, ch := range node.children {
					if ch.seat == mover && ch.mv == mv {
						ch.avail++
						found = true
						break
					}
				}
				if !found {
					untried = append(untried, mv)
				}
			}
			if len(untried) > 0 {
				mv := untried[r.IntN(len(untried))]
				ch := &isNode{seat: mover, mv: mv, avail: 1}
				node.children = append(node.children, ch)
				path = append(path, ch)
				// The rest of the hand by the playout policy, from here.
				var sc [4]int
				for t := range sc {
					sc[t] = scores[t] + gain[t]
				}
				v, _ := playout(&s, b, mv, p, &sc)
				value = final(&gain, me, p.opts.Teams()) + v
				break
			}
			sign := 1.0
			if p.opts.TeamOf(mover) != me {
				sign = -1
			}
			var best *isNode
			bestU := math.Inf(-1)
			for _, ch := range node.children {
				if ch.seat != mover || !slices.Contains(avail, ch.mv) {
					continue
				}
				u := math.Inf(1)
				if ch.visits > 0 {
					u = sign*ch.total/ch.visits + c*math.Sqrt(math.Log(ch.avail)/ch.visits)
				}
				if u > bestU {
					best, bestU = ch, u
				}
			}
			path = append(path, best)
			node = best
			if v, done := step(&s, best.mv, p.opts, me, &gain, &scores); done {
				value = v
				break
			}
			b.place(best.mv.Tile, best.mv.End)
		}
		for _, n := range path {
			n.visits++
			n.total += value
		}
	}
	best := root.children[0]
	for _, ch := range root.children {
		if ch.visits > best.visits {
			best = ch
		}
	}
	return best.mv
}
