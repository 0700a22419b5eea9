package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// AppendJSON appends the view's JSON to b: the very bytes json.Marshal
// writes for it (TestAppendJSONIsMarshal compares them over whole matches),
// without encoding/json's reflection and without re-reading every event's
// MarshalJSON output to compact it, which was a third of a poll's time.
func (v *View) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"id":`...)
	b = appendString(b, v.ID)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, v.Version, 10)
	b = append(b, `,"variant":`...)
	if b, err = appendName(b, "variant", variantNames, int(v.Variant)); err != nil {
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
	b = appendIntPtr(b, o.MoveTime)
	b = append(b, `},"status":`...)
	if b, err = appendName(b, "status", statusNames, int(v.Status)); err != nil {
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
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"scores":`...)
	b = appendInts(b, v.Scores)
	b = append(b, `,"hand":`...)
	if b, err = v.Hand.appendJSON(b); err != nil {
		return nil, err
	}
	b = append(b, `,"lastHand":`...)
	if v.LastHand == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"number":`...)
		b = strconv.AppendInt(b, int64(v.LastHand.Number), 10)
		b = append(b, `,"board":`...)
		if b, err = v.LastHand.Board.appendJSON(b); err != nil {
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
	if b, err = v.You.appendJSON(b); err != nil {
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
			b = v.Log[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"winner":`...)
	b = appendIntPtr(b, v.Winner)
	b = append(b, `,"next":`...)
	b = appendStringPtr(b, v.Next)
	b = append(b, `,"previous":`...)
	b = appendStringPtr(b, v.Previous)
	b = append(b, `,"series":{"matches":`...)
	b = strconv.AppendInt(b, int64(v.Series.Matches), 10)
	b = append(b, `,"wins":`...)
	b = appendInts(b, v.Series.Wins)
	b = append(b, `},"updatedAt":`...)
	b = appendString(b, v.UpdatedAt)
	return append(b, '}'), nil
}

func (h *ViewHand) appendJSON(b []byte) ([]byte, error) {
	if h == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, `{"number":`...)
	b = strconv.AppendInt(b, int64(h.Number), 10)
	b = append(b, `,"phase":`...)
	if b, err = appendName(b, "phase", phaseNames, int(h.Phase)); err != nil {
		return nil, err
	}
	b = append(b, `,"leader":`...)
	b = strconv.AppendInt(b, int64(h.Leader), 10)
	b = append(b, `,"turn":`...)
	b = appendIntPtr(b, h.Turn)
	b = append(b, `,"boneyard":`...)
	b = strconv.AppendInt(b, int64(h.Boneyard), 10)
	b = append(b, `,"board":`...)
	if b, err = h.Board.appendJSON(b); err != nil {
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
	b = appendStringPtr(b, h.Deadline)
	return append(b, '}'), nil
}

func (bd *ViewBoard) appendJSON(b []byte) ([]byte, error) {
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
			if b, err = appendName(b, "end", endNames[:], int(e.End)); err != nil {
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

func (y *ViewYou) appendJSON(b []byte) ([]byte, error) {
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
			if b, err = appendName(b, "end", endNames[:], int(m.End)); err != nil {
				return nil, err
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"confirm":`...)
	b = strconv.AppendBool(b, y.Confirm)
	return append(b, '}'), nil
}

// appendName writes names[i] as a JSON string, as MarshalText would.
func appendName(b []byte, what string, names []string, i int) ([]byte, error) {
	n := name(names, i)
	if n == "" {
		return nil, fmt.Errorf("%w: %s %d has no name", ErrBadInput, what, i)
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

func appendTiles(b []byte, ts []Tile) []byte {
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
