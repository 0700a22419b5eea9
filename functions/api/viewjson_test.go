package api

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"tessera/engine"
	"tessera/functions/game"
)

// wireView is API.md's view through encoding/json's struct tags: the
// reference that the hand-written viewAnswer.appendJSON must equal byte
// for byte. Events and hand results are written by appendEvent and
// appendResultFields in both (a type each, no reflection to compare with).
type wireView struct {
	ID      string `json:"id"`
	Version int64  `json:"version"`
	Variant string `json:"variant"`
	Options struct {
		Players  int  `json:"players"`
		Pairs    bool `json:"pairs"`
		Target   int  `json:"target"`
		Redeal   bool `json:"redeal"`
		MoveTime *int `json:"moveTime"`
	} `json:"options"`
	Status   string     `json:"status"`
	Seats    []wireSeat `json:"seats"`
	Scores   []int      `json:"scores"`
	Hand     *wireHand  `json:"hand"`
	LastHand *struct {
		Number int       `json:"number"`
		Board  wireBoard `json:"board"`
	} `json:"lastHand"`
	Sheet  [][]int           `json:"sheet"`
	You    *wireYou          `json:"you"`
	Log    []json.RawMessage `json:"log"`
	Winner *int              `json:"winner"`
	Next   *string           `json:"next"`
	Prev   *string           `json:"previous"`
	League *string           `json:"league"`
	Tour   *string           `json:"tournament"`
	Series struct {
		Matches int   `json:"matches"`
		Wins    []int `json:"wins"`
	} `json:"series"`
	Open      bool          `json:"open"`
	Rated     bool          `json:"rated"`
	Trophies  *[]wireTrophy `json:"trophies"`
	Chat      *int          `json:"chat"`
	UpdatedAt string        `json:"updatedAt"`
}

type wireTrophy struct {
	Seat int    `json:"seat"`
	ID   string `json:"id"`
}

type wireSeat struct {
	Seat        int     `json:"seat"`
	Name        *string `json:"name"`
	Team        int     `json:"team"`
	Bot         *string `json:"bot"`
	Taken       bool    `json:"taken"`
	Tiles       int     `json:"tiles"`
	Away        bool    `json:"away"`
	Player      *string `json:"player"`
	Rating      *int    `json:"rating"`
	RatingAfter *int    `json:"ratingAfter"`
	Provisional bool    `json:"provisional"`
	Vacation    *string `json:"vacation"`
}

type wireHand struct {
	Number     int              `json:"number"`
	Phase      string           `json:"phase"`
	Leader     int              `json:"leader"`
	Turn       *int             `json:"turn"`
	Boneyard   int              `json:"boneyard"`
	Board      wireBoard        `json:"board"`
	Confirming []int            `json:"confirming"`
	Result     *json.RawMessage `json:"result"`
	Deadline   *string          `json:"deadline"`
}

type wireBoard struct {
	Line    [][2]int `json:"line"`
	Lead    *int     `json:"lead"`
	Spinner *int     `json:"spinner"`
	Up      [][2]int `json:"up"`
	Down    [][2]int `json:"down"`
	Ends    []struct {
		End  string `json:"end"`
		Pips int    `json:"pips"`
	} `json:"ends"`
	Count      *int  `json:"count"`
	CountTerms []int `json:"countTerms"`
}

type wireYou struct {
	Seat  int      `json:"seat"`
	Team  int      `json:"team"`
	Tiles [][2]int `json:"tiles"`
	Legal []struct {
		Tile [2]int `json:"tile"`
		End  string `json:"end"`
	} `json:"legal"`
	Confirm bool `json:"confirm"`
	Answers bool `json:"answers"`
}

func tiles(ts []engine.Tile) [][2]int {
	if ts == nil {
		return nil
	}
	out := make([][2]int, len(ts))
	for i, t := range ts {
		out[i] = [2]int{int(t[0]), int(t[1])}
	}
	return out
}

func name(t interface{ MarshalText() ([]byte, error) }) string {
	b, _ := t.MarshalText()
	return string(b)
}

func board(b *engine.ViewBoard) wireBoard {
	w := wireBoard{Line: tiles(b.Line), Lead: b.Lead, Spinner: b.Spinner, Up: tiles(b.Up), Down: tiles(b.Down), Count: b.Count, CountTerms: b.CountTerms}
	if b.Ends != nil {
		w.Ends = make([]struct {
			End  string `json:"end"`
			Pips int    `json:"pips"`
		}, len(b.Ends))
		for i, e := range b.Ends {
			w.Ends[i].End, w.Ends[i].Pips = name(e.End), e.Pips
		}
	}
	return w
}

// wire builds the reference of a view answer.
func wire(a *viewAnswer) *wireView {
	v := a.v
	w := &wireView{ID: a.meta.ID, Version: a.meta.Version, Variant: name(v.Variant), Status: name(v.Status),
		Scores: v.Scores, Sheet: v.Sheet, Winner: v.Winner, Next: idPtr(a.meta.Next), Prev: idPtr(a.meta.Previous),
		League: idPtr(a.meta.League), Tour: idPtr(a.meta.Tournament),
		UpdatedAt: a.updatedAt()}
	w.Options.Players, w.Options.Pairs, w.Options.Target, w.Options.Redeal = v.Options.Players, v.Options.Pairs, v.Options.Target, v.Options.Redeal
	w.Options.MoveTime = a.moveTime()
	if h := v.Hand; h != nil {
		w.Hand = &wireHand{Number: h.Number, Phase: name(h.Phase), Leader: h.Leader, Turn: h.Turn, Boneyard: h.Boneyard,
			Board: board(&h.Board), Confirming: h.Confirming, Deadline: a.deadline()}
		if h.Result != nil {
			r := json.RawMessage(append(appendResultFields([]byte{'{'}, h.Result), '}'))
			w.Hand.Result = &r
		}
	}
	if l := v.LastHand; l != nil {
		w.LastHand = &struct {
			Number int       `json:"number"`
			Board  wireBoard `json:"board"`
		}{l.Number, board(&l.Board)}
	}
	if y := v.You; y != nil {
		w.You = &wireYou{Seat: y.Seat, Team: y.Team, Tiles: tiles(y.Tiles), Confirm: y.Confirm, Answers: y.Answers}
		if y.Legal != nil {
			w.You.Legal = make([]struct {
				Tile [2]int `json:"tile"`
				End  string `json:"end"`
			}, len(y.Legal))
			for i, m := range y.Legal {
				w.You.Legal[i].Tile, w.You.Legal[i].End = [2]int{int(m.Tile[0]), int(m.Tile[1])}, name(m.End)
			}
		}
	}
	if v.Log != nil {
		w.Log = make([]json.RawMessage, len(v.Log))
		for i := range v.Log {
			w.Log[i] = appendEvent(nil, &v.Log[i], a.at(v.Log[i].Seq))
		}
	}
	if v.Seats != nil {
		w.Seats = make([]wireSeat, len(v.Seats))
		for i, st := range v.Seats {
			sm := a.seatMeta(st.Seat)
			var until *string
			if !sm.Vacation.IsZero() && v.Status != engine.StatusFinished {
				u := sm.Vacation.UTC().Format(time.RFC3339)
				until = &u
			}
			w.Seats[i] = wireSeat{st.Seat, st.Name, st.Team, st.Bot, st.Taken, st.Tiles, st.Away, idPtr(sm.Player), ratingPtr(sm.Rating), ratingPtr(sm.RatingAfter), sm.Provisional, until}
		}
	}
	w.Series.Matches, w.Series.Wins = a.series()
	w.Open, w.Rated = a.meta.Open, a.meta.Rated
	if v.Status == engine.StatusFinished {
		tr := []wireTrophy{}
		for seat, sm := range a.meta.Seats {
			for _, id := range sm.Trophies {
				tr = append(tr, wireTrophy{seat, id})
			}
		}
		w.Trophies = &tr
	}
	if v.You != nil {
		c := a.meta.Chat
		w.Chat = &c
	}
	return w
}

func ratingPtr(r int) *int {
	if r < 0 {
		return nil
	}
	return &r
}

// TestAppendJSONIsMarshal: over 30 whole matches of every table
// configuration (people going away and coming back, names that need
// escaping, every field of the meta set), the view of every seat and of a
// spectator after every step is the same bytes from appendJSON as from
// json.Marshal of the reference.
func TestAppendJSONIsMarshal(t *testing.T) {
	names := []string{"Ana", `<b>"Bea"</b> & co`, "Ça\u2028va\\", "\U0001F031 d\x7fe"}
	tables := engine.Tables()
	views := 0
	matches := 30
	if raceEnabled {
		matches = 9 // race_on_test.go
	}
	for k := range matches {
		c := tables[k%len(tables)].Options
		m, err := engine.NewMatch(c, engine.Seed{uint64(k), 30})
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.Players {
			s := engine.Seat{Name: names[(i+k)%len(names)]}
			if i == 1 && k%3 == 0 {
				s.Bot = "hard"
			}
			if err := m.TakeSeat(i, s); err != nil {
				t.Fatal(err)
			}
		}
		r := rand.New(rand.NewPCG(uint64(k), 1))
		at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
		meta := game.Meta{ID: "abcdefghijklmnop", UpdatedAt: at, SeriesMatches: k, SeriesWins: []int{1, 2}}
		if k%2 == 0 {
			meta.MoveTime, meta.Deadline, meta.Next, meta.Previous = 3600, at.Add(time.Hour), "qrstuvwxyzabcdef", "ghijklmnopqrstuv"
			meta.Open, meta.Rated = true, k%4 == 0
			meta.Seats = make([]game.SeatMeta, c.Players)
			for i := range meta.Seats {
				meta.Seats[i] = game.SeatMeta{Player: "p" + strings.Repeat(string(rune('a'+i)), 15), Rating: 1400 + 37*i, RatingAfter: -1}
				if i == 1 {
					meta.Seats[i] = game.SeatMeta{Rating: -1, RatingAfter: -1}
				}
				if k%4 == 0 {
					meta.Seats[i].RatingAfter = 1500 + i
					meta.Seats[i].Provisional = i == 0
					meta.Seats[i].Trophies = []string{"domino", "thirty"}[:i%3]
				}
			}
		}
		for step := 0; m.Status() == engine.StatusPlaying; step++ {
			act := m.ToAct()
			seat := act[r.IntN(len(act))]
			var mv engine.Move
			switch {
			case m.Confirming(seat):
				mv = engine.Move{Kind: engine.Keep}
			case r.IntN(15) == 0 && m.Seat(seat).Bot == "":
				mv = engine.Move{Kind: engine.Away}
				if m.Seat(seat).Away {
					mv = engine.Move{Kind: engine.Back}
				}
			default:
				legal := m.AppendLegal(seat, nil)
				mv = legal[r.IntN(len(legal))]
			}
			if err := m.Apply(seat, mv); err != nil {
				continue
			}
			meta.Version = int64(step + 2)
			meta.EventTimes = []game.EventTime{{UpTo: m.Seq() / 2, At: at}, {UpTo: m.Seq() - 1, At: at.Add(time.Minute)}}
			for s := -1; s < c.Players; s++ {
				a := answer(m, s, meta)
				want, err := json.Marshal(wire(a))
				if err != nil {
					t.Fatal(err)
				}
				got, err := a.appendJSON(nil)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("match %d step %d seat %d: %v\n got %s\nwant %s", k, step, s, err, got, want)
				}
				views++
			}
		}
	}
	t.Logf("%d views compared", views)
}

// What the reference derives from the meta, apart from the writer.

// moveTime is the clock in seconds, nil without one.
func (a *viewAnswer) moveTime() *int {
	if a.meta.MoveTime <= 0 {
		return nil
	}
	n := a.meta.MoveTime
	return &n
}

// deadline is hand.deadline: with a clock, while a seat must act; nil
// otherwise.
func (a *viewAnswer) deadline() *string {
	if a.meta.Deadline.IsZero() || a.v.Status != engine.StatusPlaying || a.v.Hand == nil {
		return nil
	}
	d := a.meta.Deadline.UTC().Format(time.RFC3339)
	return &d
}

func (a *viewAnswer) updatedAt() string { return a.meta.UpdatedAt.UTC().Format(time.RFC3339) }

func idPtr(id string) *string {
	if id == "" {
		return nil
	}
	return &id
}

// answer is the view of match m for seat, as the handler answers it.
func answer(m *engine.Match, seat int, meta game.Meta) *viewAnswer {
	return &viewAnswer{v: m.View(seat), meta: meta}
}
