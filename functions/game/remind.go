package game

import (
	"context"
	"time"
)

// Reminders: when a quarter, then a tenth, of a seat's time is left, its
// devices are told (the sweep: sweepOne).

// remind sends the reminders that are due, noting them first (a note:
// the game's version and view do not change), so each goes out at most
// once. A stale due time is corrected the same way.
func (h *Service) remind(ctx context.Context, host, id string, g *Loaded) (bool, error) {
	now := h.now()
	var seats []int
	g, err := h.note(ctx, id, g, func(g *Loaded) error {
		seats = seats[:0]
		for i := range g.State.Seats {
			if was := g.State.Seats[i].Reminded; g.State.remindedAt(i, now) > was {
				seats = append(seats, i) // one reminder, however many fell due
			}
		}
		if len(seats) == 0 && g.State.Due().Unix() == g.Item.Due.Unix() {
			return ErrUnchanged
		}
		return nil
	})
	if err != nil || len(seats) == 0 {
		return false, err
	}
	m, err := g.Replay()
	if err != nil {
		return false, err
	}
	msgs := map[int]Message{}
	for _, s := range seats {
		if g.State.Seats[s].TokenHash == nil {
			continue
		}
		v := m.View(s)
		left := g.State.DeadlineOf(s).Sub(now).Round(time.Minute)
		msgs[s] = inEveryLang(id, g.Version(), "reminder", func(l lang) (string, string) {
			return say(l, "sent.reminder", "left", inWords(left, l)), say(l, "sent.yourMoveIn", "table", TableName(v, s, l))
		})
	}
	h.Send(ctx, host, id, g.Version(), g.State, msgs)
	return true, nil
}
