package bot

import (
	"errors"
	"fmt"
	"math/bits"

	"tessera/engine"
)

// position is everything one seat knows about the hand being played, read
// from its own view and nothing else.
type position struct {
	opts  engine.Options
	seat  int
	hand  uint32              // the seat's own tiles
	plays []engine.PlayedTile // the current hand's plays, in order
	held  [4]int              // how many tiles each seat holds
	// boneyard is how many tiles are left to draw; in a rule set without
	// drawing, how many were not dealt (out of play, face down).
	boneyard int
	// void[s] has bit p set when seat s is known to hold no tile showing p:
	// it drew or passed while the open ends showed p (see readLog).
	void   [4]uint8
	unseen uint32 // tiles neither in the seat's hand nor on the layout
	scores []int
	// drewAfter[s] is how many plays the hand had when seat s last drew
	// (0: never): its hand before that is not known from its hand now.
	drewAfter [4]int
	// fair: the playouts read the risk as the mover sees it (rollout; a
	// measurement).
	fair bool
}

var errNoPosition = errors.New("bot: the view holds no hand in play for this seat")

// readPosition builds the seat's knowledge from its view.
func readPosition(v *engine.View) (*position, error) {
	if v == nil || v.You == nil || v.Hand == nil {
		return nil, errNoPosition
	}
	rules := v.Variant.Rules()
	if rules == nil {
		return nil, fmt.Errorf("bot: unknown variant %v", v.Variant)
	}
	p := &position{
		opts: engine.Options{Variant: v.Variant, Players: v.Options.Players, Pairs: v.Options.Pairs,
			Target: v.Options.Target, Redeal: v.Options.Redeal},
		seat:     v.You.Seat,
		boneyard: v.Hand.Boneyard,
		scores:   v.Scores,
	}
	if p.opts.Players < 2 || p.opts.Players > 4 || len(v.Seats) != p.opts.Players ||
		len(v.Scores) != p.opts.Teams() || p.seat < 0 || p.seat >= p.opts.Players {
		return nil, errNoPosition
	}
	for _, t := range v.You.Tiles {
		if !validTile(t) {
			return nil, errNoPosition
		}
		p.hand |= bit(t)
	}
	for i, s := range v.Seats {
		if s.Tiles < 0 {
			return nil, errNoPosition
		}
		p.held[i] = s.Tiles
	}
	if p.boneyard < 0 {
		return nil, errNoPosition
	}
	if err := p.readLog(v.Log, v.Hand.Number); err != nil {
		return nil, err
	}
	played := uint32(0)
	for _, pl := range p.plays {
		played |= bit(pl.Tile)
	}
	p.unseen = allTiles &^ p.hand &^ played
	hidden := p.boneyard
	for s := 0; s < p.opts.Players; s++ {
		if s != p.seat {
			hidden += p.held[s]
		}
	}
	if !rules.Draw && p.boneyard == 0 {
		// The tiles nobody holds and nobody played were not dealt.
		p.boneyard = max(bits.OnesCount32(p.unseen)-hidden, 0)
		hidden += p.boneyard
	}
	if hidden != bits.OnesCount32(p.unseen) || p.held[p.seat] != bits.OnesCount32(p.hand) {
		return nil, fmt.Errorf("bot: the view's counts do not add up (%d hidden, %d unseen)", hidden, bits.OnesCount32(p.unseen))
	}
	return p, nil
}

// readLog collects the current hand's plays and what its draws and passes
// say about the numbers each seat lacks. A seat that passes while the ends
// show the numbers E holds no tile showing E. A seat that draws on E draws
// until a tile fits, so every tile it drew but the last lacks E, and the last
// one it must play at once: after that play it lacks E, and what it lacked
// before the draw still holds only when it drew a single tile (the one it
// played). Between the draw and that play nothing is sure. A pass after a
// draw (the boneyard ran out) leaves it lacking E alone.
func (p *position) readLog(log []engine.Event, hand int) error {
	start := -1
	for i, e := range log {
		if e.Hand == hand && e.Type == engine.EventDeal {
			start = i
		}
	}
	if start < 0 {
		return errNoPosition
	}
	events := log[start+1:]
	var all uint32
	for _, e := range events {
		switch {
		case e.Hand != hand || (e.Type != engine.EventPlay && e.Type != engine.EventDraw && e.Type != engine.EventPass):
		case e.Seat < 0 || e.Seat >= p.opts.Players || !validTile(e.Tile):
			return fmt.Errorf("bot: log event %d is not a move of this table", e.Seq)
		case e.Type == engine.EventPlay:
			all |= bit(e.Tile)
		}
	}
	// The holder seat holds every tile played this hand and replays the
	// plays one after the other, so its layout shows the ends as they were
	// at every event.
	hands := make([][]engine.Tile, p.opts.Players)
	hands[0] = tilesOf(all)
	holder, err := engine.NewSim(p.opts, nil, hands, nil, 0)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	// A draw is resolved by the seat's next play or pass: until then the
	// seat holds the tile it drew last, which may show the ends.
	var drew [4]int
	var drewOn, before [4]uint8
	for _, e := range events {
		if e.Hand != hand {
			continue
		}
		switch e.Type {
		case engine.EventPlay:
			switch {
			case drew[e.Seat] == 1:
				p.void[e.Seat] = before[e.Seat] | drewOn[e.Seat]
			case drew[e.Seat] > 1:
				p.void[e.Seat] = drewOn[e.Seat]
			}
			drew[e.Seat] = 0
			if _, err := holder.Play(e.Tile, e.End); err != nil {
				return fmt.Errorf("bot: replaying the log: %w", err)
			}
			p.plays = append(p.plays, engine.PlayedTile{Seat: e.Seat, Tile: e.Tile, End: e.End})
		case engine.EventDraw:
			drew[e.Seat] = e.Count
			p.drewAfter[e.Seat] = len(p.plays)
			drewOn[e.Seat] = openNumbers(holder.Layout())
			before[e.Seat] = p.void[e.Seat]
			p.void[e.Seat] = 0 // it holds new tiles: nothing is sure until it plays
		case engine.EventPass:
			ends := openNumbers(holder.Layout())
			if drew[e.Seat] > 0 {
				p.void[e.Seat] = ends
			} else {
				p.void[e.Seat] |= ends
			}
			drew[e.Seat] = 0
		}
	}
	return nil
}

// teamOf is the team of a seat.
func (p *position) teamOf(seat int) int { return p.opts.TeamOf(seat) }

// mayHold is the chance that seat s holds unseen tile i, given the seats'
// counts, the boneyard and the numbers each seat lacks: the seat's share of
// the places the tile can be.
func (p *position) mayHold(s, i int) float64 {
	num := numbers(tileOf[i])
	if p.void[s]&num != 0 || p.unseen&(1<<i) == 0 {
		return 0
	}
	room := p.boneyard
	for q := 0; q < p.opts.Players; q++ {
		if q != p.seat && p.void[q]&num == 0 {
			room += p.held[q]
		}
	}
	if room == 0 {
		return 0
	}
	return float64(p.held[s]) / float64(room)
}
