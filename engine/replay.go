package engine

import (
	"fmt"
	"slices"
)

// Replay rebuilds a match from what its encoding keeps: options, seats,
// seed, the first leader and every hand's record. Draws, passes, scores, the
// log and the current hand all follow from these. A record that does not
// replay exactly (an illegal play, an answer nobody was asked for, a deal
// that is not a permutation, left-over data) is ErrCorrupt.
func Replay(opts Options, seats []Seat, seed Seed, firstLeader int, records []HandRecord) (*Match, error) {
	m, err := NewMatch(opts, seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if len(seats) != opts.Players {
		return nil, fmt.Errorf("%w: %d seats for %d players", ErrCorrupt, len(seats), opts.Players)
	}
	if firstLeader < 0 || firstLeader >= opts.Players {
		return nil, fmt.Errorf("%w: first leader %d", ErrCorrupt, firstLeader)
	}
	m.firstLeader = firstLeader
	for hi, rec := range records {
		if len(rec.Deals) == 0 {
			return nil, fmt.Errorf("%w: hand %d has no deal", ErrCorrupt, hi+1)
		}
		for _, d := range rec.Deals {
			order, err := dealOrder(&d.Order)
			if err != nil {
				return nil, err
			}
			m.feed = append(m.feed, order)
		}
	}
	for i, s := range seats {
		if !s.Taken {
			continue
		}
		s.Away = false // who is away follows from the seat changes
		if err := m.TakeSeat(i, s); err != nil {
			return nil, fmt.Errorf("%w: seat %d: %v", ErrCorrupt, i, err)
		}
	}
	if m.status == StatusOpen && len(records) > 0 {
		return nil, fmt.Errorf("%w: records for a match that has not started", ErrCorrupt)
	}
	if err := m.replayHands(records); err != nil {
		return nil, err
	}
	return m, nil
}

// checkpoint is the state at the start of hand Hand (format 4): what
// resume starts a decoded match from.
type checkpoint struct {
	Hand   int // 1-based
	Scores []int
	Away   uint8
	Leader int
	Seq    int // events before the hand's deal
	// Starts is the scores at the start of hands 1..Hand-1 (format 5).
	Starts [][4]int
}

// resume rebuilds a match from a checkpoint at the start of hand cp.Hand
// and the records of that hand and the ones after it: the same match as
// Replay of every record, replaying at most the hands since the
// checkpoint. past is the encoding of the records before it, kept for
// Encode. As with Replay, records that do not replay exactly are
// ErrCorrupt; the checkpoint itself is trusted as far as it is consistent
// (the encoding's CRC and the store's checksums guard it).
func resume(opts Options, seats []Seat, seed Seed, firstLeader int, cp checkpoint, past []byte, records []HandRecord) (*Match, error) {
	m, err := NewMatch(opts, seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	switch {
	case len(seats) != opts.Players:
		return nil, fmt.Errorf("%w: %d seats for %d players", ErrCorrupt, len(seats), opts.Players)
	case firstLeader < 0 || firstLeader >= opts.Players:
		return nil, fmt.Errorf("%w: first leader %d", ErrCorrupt, firstLeader)
	case cp.Hand < 1 || len(records) == 0:
		return nil, fmt.Errorf("%w: checkpoint at hand %d with %d hands after it", ErrCorrupt, cp.Hand, len(records))
	case cp.Leader < 0 || cp.Leader >= opts.Players || int(cp.Away)>>opts.Players != 0 || len(cp.Scores) != opts.Teams():
		return nil, fmt.Errorf("%w: checkpoint", ErrCorrupt)
	}
	for _, sc := range cp.Scores {
		if sc < 0 || sc >= opts.Target {
			return nil, fmt.Errorf("%w: checkpoint score %d", ErrCorrupt, sc)
		}
	}
	// The running totals never go down and stay below the target.
	if len(cp.Starts) != cp.Hand-1 {
		return nil, fmt.Errorf("%w: %d hands' scores before the checkpoint at hand %d", ErrCorrupt, len(cp.Starts), cp.Hand)
	}
	for h, sc := range cp.Starts {
		next := cp.Scores
		if h+1 < len(cp.Starts) {
			next = cp.Starts[h+1][:len(cp.Scores)]
		}
		for t := range cp.Scores {
			if sc[t] > next[t] {
				return nil, fmt.Errorf("%w: the score sheet goes down at hand %d", ErrCorrupt, h+2)
			}
		}
	}
	m.firstLeader = firstLeader
	for i, s := range seats {
		if !s.Taken {
			return nil, fmt.Errorf("%w: seat %d empty in a started match", ErrCorrupt, i)
		}
		s.Away = cp.Away&(1<<i) != 0
		if s.Away && s.Bot != "" {
			return nil, fmt.Errorf("%w: computer seat %d away", ErrCorrupt, i)
		}
		m.seats[i] = s
	}
	for hi, rec := range records {
		if len(rec.Deals) == 0 {
			return nil, fmt.Errorf("%w: hand %d has no deal", ErrCorrupt, cp.Hand+hi)
		}
		for _, d := range rec.Deals {
			order, err := dealOrder(&d.Order)
			if err != nil {
				return nil, err
			}
			m.feed = append(m.feed, order)
		}
	}
	copy(m.scores, cp.Scores)
	m.status = StatusPlaying
	m.handNo, m.pastHands, m.logBase = cp.Hand-1, cp.Hand-1, cp.Seq
	m.past = append([]byte(nil), past...)
	m.pastStarts = cp.Starts
	m.startHand(cp.Leader)
	if err := m.replayHands(records); err != nil {
		return nil, err
	}
	return m, nil
}

// replayHands replays records, the records of the hands from the current
// one (just dealt) on.
func (m *Match) replayHands(records []HandRecord) error {
	// Room for the events the replay will emit (a deal or answer, a play
	// and about one forced draw or pass each, a seat change), so the log
	// is not regrown and copied on the way: that was a tenth of a poll.
	n := 0
	for _, rec := range records {
		n += 2*len(rec.Deals) + 2*len(rec.Plays) + len(rec.Changes)
	}
	m.log = slices.Grow(m.log, n+2)
	base := m.pastHands
	for hi, rec := range records {
		hand := base + hi + 1
		if m.status != StatusPlaying || m.handNo != hand {
			return fmt.Errorf("%w: hand %d recorded after the match ended", ErrCorrupt, hand)
		}
		// The seats' changes go in before the action they preceded.
		next := 0
		changes := func() error {
			for ; next < len(rec.Changes) && rec.Changes[next].At == m.actions; next++ {
				c := rec.Changes[next]
				if c.Seat < 0 || c.Seat >= len(m.seats) || c.Kind > BackAgain {
					return fmt.Errorf("%w: hand %d: seat change %d", ErrCorrupt, hand, next+1)
				}
				if err := m.replayChange(c); err != nil {
					return fmt.Errorf("%w: hand %d: seat change %d: %v", ErrCorrupt, hand, next+1, err)
				}
			}
			return nil
		}
		for di, d := range rec.Deals {
			if len(m.records[hi].Deals) != di+1 {
				return fmt.Errorf("%w: hand %d deal %d out of place", ErrCorrupt, hand, di+1)
			}
			for ai, a := range d.Answers {
				// Only the last answer to a deal can be a redeal, and it
				// must be when another deal follows.
				if a.Redeal != (ai == len(d.Answers)-1 && di < len(rec.Deals)-1) {
					return fmt.Errorf("%w: hand %d deal %d: answer %d out of place", ErrCorrupt, hand, di+1, ai+1)
				}
				kind := Keep
				if a.Redeal {
					kind = Redeal
				}
				if err := changes(); err != nil {
					return err
				}
				if err := m.Apply(a.Seat, Move{Kind: kind}); err != nil {
					return fmt.Errorf("%w: hand %d: %v", ErrCorrupt, hand, err)
				}
			}
		}
		for k, c := range rec.Plays {
			if m.handNo != hand || m.status != StatusPlaying {
				return fmt.Errorf("%w: hand %d play %d after the hand ended", ErrCorrupt, hand, k+1)
			}
			if err := changes(); err != nil {
				return err
			}
			if err := m.Apply(m.Turn(), Move{Kind: Play, Tile: c.Tile, End: c.End}); err != nil {
				return fmt.Errorf("%w: hand %d play %d: %v", ErrCorrupt, hand, k+1, err)
			}
		}
		// Changes after the hand's last action belong to the hand being
		// played: one that ended started the next in the same step.
		if m.handNo == hand && m.status == StatusPlaying {
			if err := changes(); err != nil {
				return err
			}
		}
		if next != len(rec.Changes) {
			return fmt.Errorf("%w: hand %d: seat changes out of place", ErrCorrupt, hand)
		}
	}
	if len(m.feed) > 0 || len(m.records) != len(records) {
		return fmt.Errorf("%w: records left over", ErrCorrupt)
	}
	return nil
}

// dealOrder checks that a recorded deal is a permutation of the set.
func dealOrder(tiles *[NumTiles]Tile) ([NumTiles]uint8, error) {
	var order [NumTiles]uint8
	var seen uint32
	for i, t := range tiles {
		if t[0] > 6 || t[1] > 6 {
			return order, fmt.Errorf("%w: deal holds tile %v", ErrCorrupt, t)
		}
		ti := t.index()
		if seen&(1<<ti) != 0 {
			return order, fmt.Errorf("%w: deal holds %v twice", ErrCorrupt, t)
		}
		seen |= 1 << ti
		order[i] = uint8(ti)
	}
	return order, nil
}
