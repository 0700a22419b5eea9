package game

import "tessera/engine"

// Feats noted per seat as the match goes (SeatRoom.Feats), from which the
// community decides trophies at the match's end.
const (
	FeatDomino   = 1 << iota // played the last tile of their hand
	FeatThirty               // a Five Up play that scored 30 or more
	FeatFourArms             // a Five Up play that scored with four open ends
)

// noteFeats notes, from the events of one change, the feats of each seat:
// a play that scored 30 or more, one that scored with the spinner's arms
// open, and the last tile of a hand (the play just before a hand's end
// whose player has no tile left).
func noteFeats(st *Stored, events []engine.Event) {
	for i, e := range events {
		switch e.Type {
		case engine.EventPlay:
			if e.Seat < 0 || e.Seat >= len(st.Seats) {
				continue
			}
			if e.Points >= 30 {
				st.Seats[e.Seat].Feats |= FeatThirty
			}
			if e.Points > 0 && e.Arms {
				st.Seats[e.Seat].Feats |= FeatFourArms
			}
		case engine.EventHandEnd:
			if i == 0 || events[i-1].Type != engine.EventPlay || e.Result == nil {
				continue
			}
			s := events[i-1].Seat
			if s >= 0 && s < len(st.Seats) && s < len(e.Result.Tiles) && len(e.Result.Tiles[s]) == 0 {
				st.Seats[s].Feats |= FeatDomino
			}
		}
	}
}
