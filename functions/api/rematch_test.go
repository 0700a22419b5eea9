package api

import (
	"encoding/json"
	"testing"

	"tessera/functions/store"
)

// finishedGame plays a two-person Five Up game to 5 to its end and
// returns it with both keys.
func (s *server) finishedGame() (string, []string) {
	s.t.Helper()
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"redeal":false,"target":5,"name":"Ana","key":"`+keyAna+`","moveTime":3600}`, "")
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	id := mustView(s.t, a.Game).ID
	s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, "")
	keys := []string{keyAna, keyBea}
	for n := 0; n < 500; n++ {
		v := s.poll(id, keyAna)
		if v.Status == "finished" {
			return id, keys
		}
		seat := *v.Hand.Turn
		lm := s.poll(id, keys[seat]).You.Legal[0]
		body := `{"version":` + itoa(v.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` + itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
		if r := s.do("POST", "/api/games/"+id+"/moves", body, keys[seat]); r.status != 200 {
			s.t.Fatalf("move: %d %s", r.status, r.body)
		}
	}
	s.t.Fatal("no end")
	return "", nil
}

type seriesView struct {
	ID       string  `json:"id"`
	Version  int64   `json:"version"`
	Status   string  `json:"status"`
	Winner   *int    `json:"winner"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Options  struct {
		MoveTime *int `json:"moveTime"`
		Target   int  `json:"target"`
	} `json:"options"`
	Series struct {
		Matches int   `json:"matches"`
		Wins    []int `json:"wins"`
	} `json:"series"`
	Seats []struct {
		Name *string `json:"name"`
	} `json:"seats"`
	You *struct {
		Seat int `json:"seat"`
	} `json:"you"`
}

func TestRematch(t *testing.T) { eachStore(t, testRematch) }

func testRematch(t *testing.T, st store.Store) {
	s := newServer(t, st, 601)
	open, _, _ := s.create(`{"variant":"fiveup","players":2,"name":"Ana","key":"` + keyAna + `"}`)
	if r := s.do("POST", "/api/games/"+open+"/rematch", `{}`, keyAna); r.status != 409 || codeOf(r) != "not_finished" {
		t.Fatalf("rematch of a game not finished: %d %s", r.status, r.body)
	}
	id, keys := s.finishedGame()
	for _, c := range []struct {
		body, token string
		status      int
	}{{`{"x":1}`, keyAna, 400}, {`[]`, keyAna, 400}, {`{}`, "", 401}, {`{}`, "nobody-has-this-key-0123", 401}} {
		if r := s.do("POST", "/api/games/"+id+"/rematch", c.body, c.token); r.status != c.status {
			t.Errorf("rematch %s with %q: %d, want %d", c.body, c.token, r.status, c.status)
		}
	}
	if r := s.do("GET", "/api/games/"+id+"/rematch", "", keyAna); r.status != 405 {
		t.Errorf("GET rematch: %d, want 405", r.status)
	}
	old := s.poll(id, "")
	// 32 rematch requests at once, by both seats: one game, made once.
	answers := parallel(s, raceMoves, func(i int) (string, string, string, string) {
		return "POST", "/api/games/" + id + "/rematch", `{}`, keys[i%2]
	})
	created, next := 0, ""
	for i, r := range answers {
		var a seatAnswerJSON
		if (r.status != 200 && r.status != 201) || json.Unmarshal(r.body, &a) != nil {
			t.Fatalf("rematch: %d %s", r.status, r.body)
		}
		if r.status == 201 {
			created++
		}
		var v seriesView
		json.Unmarshal(a.Game, &v)
		if next == "" {
			next = v.ID
		}
		if v.ID != next || a.Seat != i%2 || a.Token != keys[i%2] || v.You == nil || v.You.Seat != i%2 {
			t.Fatalf("answer %d: game %s seat %d token %q", i, v.ID, a.Seat, a.Token)
		}
	}
	if created != 1 || next == id {
		t.Fatalf("%d answers created a game (want 1); next %s", created, next)
	}
	var finished, rematch seriesView
	json.Unmarshal(s.do("GET", "/api/games/"+id, "", "").body, &finished)
	json.Unmarshal(s.do("GET", "/api/games/"+next, "", keyBea).body, &rematch)
	if finished.Next == nil || *finished.Next != next || finished.Version != old.Version+1 {
		t.Fatalf("the finished game: next %v, version %d (was %d)", finished.Next, finished.Version, old.Version)
	}
	if rematch.Previous == nil || *rematch.Previous != id || rematch.Status != "playing" ||
		*rematch.Options.MoveTime != 3600 || rematch.Options.Target != 5 || *rematch.Seats[0].Name != "Ana" || *rematch.Seats[1].Name != "Bea" {
		t.Fatalf("the rematch: %+v", rematch)
	}
	w := *old.Winner
	if finished.Series.Matches != 1 || finished.Series.Wins[w] != 1 || rematch.Series.Matches != 1 || rematch.Series.Wins[w] != 1 {
		t.Fatalf("series: finished %+v, rematch %+v (winner %d)", finished.Series, rematch.Series, w)
	}
	for _, k := range keys {
		m := s.me(k)
		if len(m.Games) < 2 || m.Games[0].ID != next {
			t.Errorf("/api/me for %s does not list the rematch first: %+v", k[:3], m.Games)
		} else if p := m.Games[0].Previous; p == nil || *p != id || m.Games[1].Previous != nil {
			t.Errorf("/api/me for %s: the rematch's previous %v, want %s; the first game's %v, want null", k[:3], p, id, m.Games[1].Previous)
		}
	}
	// A third match: the series counts on.
	s2 := s
	for n := 0; n < 500; n++ {
		v := s2.poll(next, keyAna)
		if v.Status == "finished" {
			break
		}
		if v.Hand.Turn == nil {
			t.Fatalf("no turn: %+v", v.Hand)
		}
		seat := *v.Hand.Turn
		lm := s2.poll(next, keys[seat]).You.Legal[0]
		body := `{"version":` + itoa(v.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` + itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
		s2.do("POST", "/api/games/"+next+"/moves", body, keys[seat])
	}
	r := s.do("POST", "/api/games/"+next+"/rematch", `{}`, keyBea)
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	var third seriesView
	json.Unmarshal(a.Game, &third)
	var second seriesView
	json.Unmarshal(s.do("GET", "/api/games/"+next, "", "").body, &second)
	if r.status != 201 || third.Series.Matches != 2 || third.Series.Wins[0]+third.Series.Wins[1] != 2 ||
		second.Series.Matches != 2 || *third.Previous != next {
		t.Fatalf("the third match: %d series %+v (second %+v)", r.status, third.Series, second.Series)
	}
}
