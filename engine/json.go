package engine

import (
	"encoding/json"
	"strconv"
	"time"
)

// The log's and results' JSON is written by hand: each event type has its
// own fields (API.md), and a result's team is null when nobody won.

// MarshalJSON writes the event with the fields of its type only.
func (e Event) MarshalJSON() ([]byte, error) {
	return e.appendJSON(make([]byte, 0, 96)), nil
}

// appendJSON appends what MarshalJSON writes.
func (e *Event) appendJSON(b []byte) []byte {
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
	case EventDeal:
		field("leader", e.Leader)
	case EventPlay:
		field("seat", e.Seat)
		b = append(b, `,"tile":`...)
		b = appendTile(b, e.Tile)
		b = append(b, `,"end":"`...)
		b = append(b, e.End.String()...)
		b = append(b, '"')
		field("points", e.Points)
	case EventDraw:
		field("seat", e.Seat)
		field("count", e.Count)
	case EventPass, EventRedeal, EventKeep:
		field("seat", e.Seat)
	case EventHandEnd:
		if e.Result != nil {
			b = appendResultFields(append(b, ','), e.Result)
		}
	case EventMatchEnd:
		field("team", e.Team)
	case EventAway:
		field("seat", e.Seat)
		if e.Timeout {
			b = append(b, `,"reason":"timeout"`...)
		} else {
			b = append(b, `,"reason":"asked"`...)
		}
	case EventBack:
		field("seat", e.Seat)
	}
	if !e.At.IsZero() {
		b = append(b, `,"at":"`...)
		b = e.At.UTC().AppendFormat(b, time.RFC3339)
		b = append(b, '"')
	}
	return append(b, '}')
}

// MarshalJSON writes {"reason", "team", "points", "tiles"}.
func (r Result) MarshalJSON() ([]byte, error) {
	b := appendResultFields(append(make([]byte, 0, 64), '{'), &r)
	return append(b, '}'), nil
}

func appendResultFields(b []byte, r *Result) []byte {
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

func appendTile(b []byte, t Tile) []byte {
	return append(b, '[', '0'+t[0], ',', '0'+t[1], ']')
}

var _ json.Marshaler = Event{}
