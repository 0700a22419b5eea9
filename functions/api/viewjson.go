package api

import (
	"encoding"
	"encoding/json"
	"strconv"
	"time"

	"tessera/engine"
	"tessera/functions/game"
)

// The JSON of API.md's view, written by hand (the engine's view holds the
// rules' facts only; the service's meta adds the rest): viewAnswer is one
// view as answered, wireView (below, in the tests) the same through
// encoding/json, which TestAppendJSONIsMarshal holds byte for byte equal.

// viewAnswer is a view as the API answers it: seat's view of the rules and
// the service's meta.
type viewAnswer struct {
	v    *engine.View
	meta game.Meta
}

// MarshalJSON writes appendJSON's bytes (json.Marshal of a value holding
// one, e.g. an error body).
func (a *viewAnswer) MarshalJSON() ([]byte, error) { return a.appendJSON(make([]byte, 0, 4096)) }

// series counts the chain's finished matches and each team's wins, this
// match included once finished.
func (a *viewAnswer) series() (int, []int) {
	wins := make([]int, len(a.v.Scores))
	copy(wins, a.meta.SeriesWins)
	matches := a.meta.SeriesMatches
	if a.v.Status == engine.StatusFinished && a.v.Winner != nil && *a.v.Winner < len(wins) {
		matches++
		wins[*a.v.Winner]++
	}
	return matches, wins
}

// at is when the event with seq happened: the At of the first event-time
// entry that covers it (zero past the last).
func (a *viewAnswer) at(seq int) time.Time {
	for _, t := range a.meta.EventTimes {
		if t.UpTo >= seq {
			return t.At
		}
	}
	return time.Time{}
}

// appendID writes a game id, or null for none.
func appendID(b []byte, id string) []byte {
	if id == "" {
		return append(b, "null"...)
	}
	return appendString(b, id)
}

// appendJSON appends API.md's view to b: the engine's view of the rules
// and the service's meta (id, version, clock, rematch links, series, event
// times), the very bytes json.Marshal writes for its wireView
// (TestAppendJSONIsMarshal compares them over whole matches), without
// encoding/json's reflection, which was a third of a poll's time.
func (a *viewAnswer) appendJSON(b []byte) ([]byte, error) {
	var err error
	v, meta := a.v, &a.meta
	b = append(b, `{"id":`...)
	b = appendString(b, meta.ID)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, meta.Version, 10)
	b = append(b, `,"variant":`...)
	if b, err = appendText(b, v.Variant); err != nil {
		return nil, err
	}
	o := &v.Options
	b = append(b, `,"options":{"players":`...)
	b = strconv.AppendInt(b, int64(o.Players), 10)
	b = append(b, `,"pairs":`...)
	b = strconv.AppendBool(b, o.Pairs)
	b = append(b, `,"target":`...)
	b = strconv.AppendInt(b, int64(o.Target), 10)
	b = append(b, `,"redeal":`...)
	b = strconv.AppendBool(b, o.Redeal)
	b = append(b, `,"moveTime":`...)
	if meta.MoveTime > 0 {
		b = strconv.AppendInt(b, int64(meta.MoveTime), 10)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `},"status":`...)
	if b, err = appendText(b, v.Status); err != nil {
		return nil, err
	}
	b = append(b, `,"seats":`...)
	if v.Seats == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.Seats {
			s := &v.Seats[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(s.Seat), 10)
			b = append(b, `,"name":`...)
			b = appendStringPtr(b, s.Name)
			b = append(b, `,"team":`...)
			b = strconv.AppendInt(b, int64(s.Team), 10)
			b = append(b, `,"bot":`...)
			b = appendStringPtr(b, s.Bot)
			b = append(b, `,"taken":`...)
			b = strconv.AppendBool(b, s.Taken)
			b = append(b, `,"tiles":`...)
			b = strconv.AppendInt(b, int64(s.Tiles), 10)
			b = append(b, `,"away":`...)
			b = strconv.AppendBool(b, s.Away)
			sm := a.seatMeta(s.Seat)
			b = append(b, `,"player":`...)
			b = appendID(b, sm.Player)
			b = append(b, `,"rating":`...)
			b = appendRating(b, sm.Rating)
			b = append(b, `,"ratingAfter":`...)
			b = appendRating(b, sm.RatingAfter)
			b = append(b, `,"provisional":`...)
			b = strconv.AppendBool(b, sm.Provisional)
			b = append(b, `,"vacation":`...)
			if sm.Vacation.IsZero() || v.Status == engine.StatusFinished {
				b = append(b, "null"...)
			} else {
				b = append(b, '"')
				b = sm.Vacation.UTC().AppendFormat(b, time.RFC3339)
				b = append(b, '"')
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"scores":`...)
	b = appendInts(b, v.Scores)
	b = append(b, `,"hand":`...)
	if b, err = appendHand(b, v.Hand, a); err != nil {
		return nil, err
	}
	b = append(b, `,"lastHand":`...)
	if v.LastHand == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"number":`...)
		b = strconv.AppendInt(b, int64(v.LastHand.Number), 10)
		b = append(b, `,"board":`...)
		if b, err = appendBoard(b, &v.LastHand.Board); err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	b = append(b, `,"sheet":`...)
	if v.Sheet == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, row := range v.Sheet {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInts(b, row)
		}
		b = append(b, ']')
	}
	b = append(b, `,"you":`...)
	if b, err = appendYou(b, v.You); err != nil {
		return nil, err
	}
	b = append(b, `,"log":`...)
	if v.Log == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range v.Log {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendEvent(b, &v.Log[i], a.at(v.Log[i].Seq))
		}
		b = append(b, ']')
	}
	b = append(b, `,"winner":`...)
	b = appendIntPtr(b, v.Winner)
	b = append(b, `,"next":`...)
	b = appendID(b, meta.Next)
	b = append(b, `,"previous":`...)
	b = appendID(b, meta.Previous)
	b = append(b, `,"league":`...)
	b = appendID(b, meta.League)
	b = append(b, `,"tournament":`...)
	b = appendID(b, meta.Tournament)
	matches, wins := a.series()
	b = append(b, `,"series":{"matches":`...)
	b = strconv.AppendInt(b, int64(matches), 10)
	b = append(b, `,"wins":`...)
	b = appendInts(b, wins)
	b = append(b, `},"open":`...)
	b = strconv.AppendBool(b, meta.Open)
	b = append(b, `,"rated":`...)
	b = strconv.AppendBool(b, meta.Rated)
	b = append(b, `,"trophies":`...)
	b = a.appendTrophies(b)
	b = append(b, `,"chat":`...)
	if v.You == nil { // a spectator does not read the table talk
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(meta.Chat), 10)
	}
	if meta.HintsOn {
		// An addition (docs/hints.md): only in games with hints.
		b = append(b, `,"hints":[`...)
		for i, h := range meta.Hints {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(h.Seat), 10)
			b = append(b, `,"seq":`...)
			b = strconv.AppendInt(b, int64(h.Seq), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"updatedAt":"`...)
	b = meta.UpdatedAt.UTC().AppendFormat(b, time.RFC3339)
	b = append(b, '"')
	return append(b, '}'), nil
}

// appendTrophies writes a finished view's trophies, [{"seat","id"}] by
// seat; null while the match goes on.
func (a *viewAnswer) appendTrophies(b []byte) []byte {
	if a.v.Status != engine.StatusFinished {
		return append(b, "null"...)
	}
	b = append(b, '[')
	first := true
	for s, sm := range a.meta.Seats {
		for _, id := range sm.Trophies {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(s), 10)
			b = append(b, `,"id":`...)
			b = appendString(b, id)
			b = append(b, '}')
		}
	}
	return append(b, ']')
}

// seatMeta is the meta of seat s (none when the meta has no seats).
func (a *viewAnswer) seatMeta(s int) game.SeatMeta {
	if s >= 0 && s < len(a.meta.Seats) {
		return a.meta.Seats[s]
	}
	return game.SeatMeta{Rating: -1, RatingAfter: -1}
}

// appendRating writes a rating, null for none (-1).
func appendRating(b []byte, r int) []byte {
	if r < 0 {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(r), 10)
}

func appendHand(b []byte, h *engine.ViewHand, a *viewAnswer) ([]byte, error) {
	if h == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, `{"number":`...)
	b = strconv.AppendInt(b, int64(h.Number), 10)
	b = append(b, `,"phase":`...)
	if b, err = appendText(b, h.Phase); err != nil {
		return nil, err
	}
	b = append(b, `,"leader":`...)
	b = strconv.AppendInt(b, int64(h.Leader), 10)
	b = append(b, `,"turn":`...)
	b = appendIntPtr(b, h.Turn)
	b = append(b, `,"boneyard":`...)
	b = strconv.AppendInt(b, int64(h.Boneyard), 10)
	b = append(b, `,"board":`...)
	if b, err = appendBoard(b, &h.Board); err != nil {
		return nil, err
	}
	b = append(b, `,"confirming":`...)
	b = appendInts(b, h.Confirming)
	b = append(b, `,"result":`...)
	if h.Result == nil {
		b = append(b, "null"...)
	} else {
		b = appendResultFields(append(b, '{'), h.Result)
		b = append(b, '}')
	}
	b = append(b, `,"deadline":`...)
	if a.meta.Deadline.IsZero() || a.v.Status != engine.StatusPlaying {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = a.meta.Deadline.UTC().AppendFormat(b, time.RFC3339)
		b = append(b, '"')
	}
	return append(b, '}'), nil
}

func appendBoard(b []byte, bd *engine.ViewBoard) ([]byte, error) {
	var err error
	b = append(b, `{"line":`...)
	b = appendTiles(b, bd.Line)
	b = append(b, `,"lead":`...)
	b = appendIntPtr(b, bd.Lead)
	b = append(b, `,"spinner":`...)
	b = appendIntPtr(b, bd.Spinner)
	b = append(b, `,"up":`...)
	b = appendTiles(b, bd.Up)
	b = append(b, `,"down":`...)
	b = appendTiles(b, bd.Down)
	b = append(b, `,"ends":`...)
	if bd.Ends == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range bd.Ends {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"end":`...)
			if b, err = appendText(b, e.End); err != nil {
				return nil, err
			}
			b = append(b, `,"pips":`...)
			b = strconv.AppendInt(b, int64(e.Pips), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"count":`...)
	b = appendIntPtr(b, bd.Count)
	b = append(b, `,"countTerms":`...)
	b = appendInts(b, bd.CountTerms)
	return append(b, '}'), nil
}

func appendYou(b []byte, y *engine.ViewYou) ([]byte, error) {
	if y == nil {
		return append(b, "null"...), nil
	}
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(y.Seat), 10)
	b = append(b, `,"team":`...)
	b = strconv.AppendInt(b, int64(y.Team), 10)
	b = append(b, `,"tiles":`...)
	b = appendTiles(b, y.Tiles)
	b = append(b, `,"legal":`...)
	if y.Legal == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, m := range y.Legal {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"tile":`...)
			b = appendTile(b, m.Tile)
			b = append(b, `,"end":`...)
			var err error
			if b, err = appendText(b, m.End); err != nil {
				return nil, err
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"confirm":`...)
	b = strconv.AppendBool(b, y.Confirm)
	b = append(b, `,"answers":`...)
	b = strconv.AppendBool(b, y.Answers)
	return append(b, '}'), nil
}

// appendText writes a name (a variant, status, phase or end) as a JSON
// string, as its MarshalText does; a value without a name is an error.
func appendText(b []byte, t encoding.TextMarshaler) ([]byte, error) {
	n, err := t.MarshalText()
	if err != nil {
		return nil, err
	}
	return append(append(append(b, '"'), n...), '"'), nil
}

func appendIntPtr(b []byte, p *int) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*p), 10)
}

func appendInts(b []byte, s []int) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

func appendTiles(b []byte, ts []engine.Tile) []byte {
	if ts == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, t := range ts {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTile(b, t)
	}
	return append(b, ']')
}

func appendStringPtr(b []byte, p *string) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return appendString(b, *p)
}

// appendString writes s as encoding/json does: plain printable ASCII as
// is, anything else (quotes, backslashes, <, >, &, control characters, any
// byte over 0x7f) through json.Marshal, whose escaping it must match.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendEvent writes a log event with the fields of its type only
// (API.md), and at, the time of the request that caused it (zero: none).
func appendEvent(b []byte, e *engine.Event, at time.Time) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"hand":`...)
	b = strconv.AppendInt(b, int64(e.Hand), 10)
	b = append(b, `,"type":"`...)
	b = append(b, e.Type.String()...)
	b = append(b, '"')
	field := func(name string, v int) {
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(v), 10)
	}
	switch e.Type {
	case engine.EventDeal:
		field("leader", e.Leader)
	case engine.EventPlay:
		field("seat", e.Seat)
		b = append(b, `,"tile":`...)
		b = appendTile(b, e.Tile)
		b = append(b, `,"end":"`...)
		b = append(b, e.End.String()...)
		b = append(b, '"')
		field("points", e.Points)
	case engine.EventDraw:
		field("seat", e.Seat)
		field("count", e.Count)
	case engine.EventPass, engine.EventRedeal, engine.EventKeep:
		field("seat", e.Seat)
	case engine.EventHandEnd:
		if e.Result != nil {
			b = appendResultFields(append(b, ','), e.Result)
		}
	case engine.EventMatchEnd:
		field("team", e.Team)
	case engine.EventAway:
		field("seat", e.Seat)
		if e.Timeout {
			b = append(b, `,"reason":"timeout"`...)
		} else {
			b = append(b, `,"reason":"asked"`...)
		}
	case engine.EventBack:
		field("seat", e.Seat)
	}
	if !at.IsZero() {
		b = append(b, `,"at":"`...)
		b = at.UTC().AppendFormat(b, time.RFC3339)
		b = append(b, '"')
	}
	return append(b, '}')
}

// appendResultFields writes a hand result's "reason", "team" (null when
// nobody won), "points" and "tiles", without braces.
func appendResultFields(b []byte, r *engine.Result) []byte {
	b = append(b, `"reason":"`...)
	b = append(b, r.Reason.String()...)
	b = append(b, `","team":`...)
	if r.Team < 0 {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(r.Team), 10)
	}
	b = append(b, `,"points":`...)
	b = strconv.AppendInt(b, int64(r.Points), 10)
	b = append(b, `,"tiles":[`...)
	for i, hand := range r.Tiles {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, t := range hand {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendTile(b, t)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

func appendTile(b []byte, t engine.Tile) []byte {
	return append(b, '[', '0'+t[0], ',', '0'+t[1], ']')
}
