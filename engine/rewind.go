package engine

import "fmt"

// ReplayHand replays hand h (1-based) from its deal, a hand whose record m
// holds (the hand being played and the one before it; every hand of a
// match replayed in full), and calls before with the match as it stood
// before each of the hand's plays (its log from the hand's deal on, no
// layout of the hand before) and the play then made, in order, k
// counting them from 0; it
// stops early when before returns false. The matches it passes are
// copies: m is not changed. A hand m holds no record of is ErrBadInput,
// a record that does not replay ErrCorrupt.
func (m *Match) ReplayHand(h int, before func(k int, at *Match, next Choice) bool) error {
	i := h - m.pastHands - 1
	if h < 1 || i < 0 || i >= len(m.records) {
		return fmt.Errorf("%w: hand %d is not kept", ErrBadInput, h)
	}
	st := m.starts[i]
	cp := checkpoint{Hand: h, Scores: append([]int(nil), st.scores[:m.opts.Teams()]...),
		Away: st.away, Leader: st.leader, Seq: st.seq}
	for k := 1; k < h; k++ {
		cp.Starts = append(cp.Starts, m.handStartScores(k))
	}
	rec := m.records[i]
	// The deal and its answers, with the seat changes made before the
	// first play; the plays are made below, one by one.
	answers := 0
	for _, d := range rec.Deals {
		answers += len(d.Answers)
	}
	first := HandRecord{Deals: rec.Deals}
	next := 0
	for ; next < len(rec.Changes) && rec.Changes[next].At <= answers; next++ {
		first.Changes = append(first.Changes, rec.Changes[next])
	}
	seats := make([]Seat, len(m.seats))
	copy(seats, m.seats)
	at, err := resume(m.opts, seats, m.seed, m.firstLeader, cp, nil, []HandRecord{first})
	if err != nil {
		return err
	}
	for k, c := range rec.Plays {
		if at.handNo != h || at.status != StatusPlaying {
			return fmt.Errorf("%w: hand %d play %d after the hand ended", ErrCorrupt, h, k+1)
		}
		for ; next < len(rec.Changes) && rec.Changes[next].At == at.actions; next++ {
			if err := at.replayChange(rec.Changes[next]); err != nil {
				return fmt.Errorf("%w: hand %d: %v", ErrCorrupt, h, err)
			}
		}
		if !before(k, at, c) {
			return nil
		}
		if err := at.Apply(at.Turn(), Move{Kind: Play, Tile: c.Tile, End: c.End}); err != nil {
			return fmt.Errorf("%w: hand %d play %d: %v", ErrCorrupt, h, k+1, err)
		}
	}
	return nil
}

// replayChange makes a recorded seat change.
func (m *Match) replayChange(c SeatChange) error {
	if c.Kind == AwayTimeout {
		return m.Timeout(c.Seat)
	}
	return m.change(c.Seat, c.Kind)
}

// Rename gives the person at seat another name (a forgotten person's
// seat, docs/forgetting.md). The name is the service's to check; the rules
// and the log do not hold names.
func (m *Match) Rename(seat int, name string) error {
	if seat < 0 || seat >= len(m.seats) || !m.seats[seat].Taken || m.seats[seat].Bot != "" {
		return fmt.Errorf("%w: seat %d holds no person", ErrBadInput, seat)
	}
	m.seats[seat].Name = name
	return nil
}
