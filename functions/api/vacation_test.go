package api

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/store"
)

// vacationView is what a view shows of vacations and the clock.
type vacationView struct {
	Version int64  `json:"version"`
	Status  string `json:"status"`
	Seats   []struct {
		Away     bool    `json:"away"`
		Vacation *string `json:"vacation"`
	} `json:"seats"`
	Hand *struct {
		Turn     *int    `json:"turn"`
		Deadline *string `json:"deadline"`
	} `json:"hand"`
}

type privateJSON struct {
	ID       string `json:"id"`
	Vacation struct {
		BudgetDays int     `json:"budgetDays"`
		Until      *string `json:"until"`
	} `json:"vacation"`
}

func (s *server) vacationView(id, key string) vacationView {
	s.t.Helper()
	r := s.do("GET", "/api/games/"+id, "", key)
	var v vacationView
	if r.status != 200 || json.Unmarshal(r.body, &v) != nil {
		s.t.Fatalf("poll: %d %s", r.status, r.body)
	}
	return v
}

// vacation sends method to /api/me/vacation and reads the private profile.
func (s *server) vacation(method, body, key string, want int) privateJSON {
	s.t.Helper()
	r := s.do(method, "/api/me/vacation", body, key)
	var p privateJSON
	if r.status != want {
		s.t.Fatalf("%s /api/me/vacation %s: %d %s, want %d", method, body, r.status, r.body, want)
	}
	if want == 200 && json.Unmarshal(r.body, &p) != nil {
		s.t.Fatalf("%s /api/me/vacation: %s", method, r.body)
	}
	return p
}

func (s *server) myVacation(key string) privateJSON {
	s.t.Helper()
	r := s.do("GET", "/api/me", "", key)
	var me struct {
		Player *privateJSON `json:"player"`
		Games  []struct {
			ID        string    `json:"id"`
			Vacations []*string `json:"vacations"`
		} `json:"games"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &me) != nil || me.Player == nil {
		s.t.Fatalf("GET /api/me: %d %s", r.status, r.body)
	}
	return *me.Player
}

func at(t *testing.T, s *string) time.Time {
	t.Helper()
	if s == nil {
		t.Fatal("a time is null")
	}
	v, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestVacationRefusesWhatItCannotGive(t *testing.T) {
	s, _ := newClockServer(t, nil2mem(), 601)
	if r := s.do("POST", "/api/me/vacation", `{"days":1}`, ""); r.status != 401 {
		t.Errorf("without a key: %d", r.status)
	}
	if r := s.do("POST", "/api/me/vacation", `{"days":1}`, keyAna); r.status != 409 || !bodyHasCode(r.body, "not_eligible") {
		t.Errorf("a key with no profile: %d %s, want 409 not_eligible", r.status, r.body)
	}
	s.do("PUT", "/api/me/profile", `{"name":"Ana"}`, keyAna)
	if p := s.myVacation(keyAna); p.Vacation.BudgetDays != 7 || p.Vacation.Until != nil {
		t.Fatalf("a new profile's vacation: %+v, want 7 days and none taken", p.Vacation)
	}
	for _, body := range []string{`{"days":0}`, `{"days":8}`, `{"days":-1}`, `{"days":2.5}`, `{"days":"3"}`, `{}`, `{"days":3,"x":1}`, `[]`, `{"days":22}`} {
		if r := s.do("POST", "/api/me/vacation", body, keyAna); r.status != 400 {
			t.Errorf("%s: %d %s, want 400", body, r.status, r.body)
		}
	}
	if r := s.do("PUT", "/api/me/vacation", `{"days":1}`, keyAna); r.status != 405 {
		t.Errorf("PUT: %d", r.status)
	}
	if p := s.myVacation(keyAna); p.Vacation.BudgetDays != 7 || p.Vacation.Until != nil {
		t.Fatalf("refusals changed the budget: %+v", p.Vacation)
	}
	s.vacation("POST", `{"days":7}`, keyAna, 200)
	if r := s.do("POST", "/api/me/vacation", `{"days":1}`, keyAna); r.status != 409 {
		t.Errorf("on vacation already: %d %s, want 409", r.status, r.body)
	}
	// Ending one that is not there changes nothing.
	s.do("PUT", "/api/me/profile", `{"name":"Bea"}`, keyBea)
	if p := s.vacation("DELETE", ``, keyBea, 200); p.Vacation.BudgetDays != 7 || p.Vacation.Until != nil {
		t.Errorf("DELETE without a vacation: %+v", p.Vacation)
	}
}

func bodyHasCode(body []byte, code string) bool {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &e) == nil && e.Error.Code == code
}

// A vacation's whole life on a fake clock: taken, the waiting game's clock
// stopped and the seat shown so to the other, ended early with the days
// not begun given back, ended by a move, ended by its time, and the budget
// growing by 2 days every 30 up to 21.
func TestAVacationsWholeLife(t *testing.T) { eachStore(t, testAVacationsWholeLife) }

func testAVacationsWholeLife(t *testing.T, st store.Store) {
	s, clock := newClockServer(t, st, 602)
	h := s.h.(*Handler)
	const moveTime = 3600
	id, keys := s.twoPlayers(moveTime)
	v := s.vacationView(id, "")
	turn := *v.Hand.Turn
	me, other := keys[turn], keys[1-turn]
	if v.Seats[turn].Vacation != nil || v.Hand.Deadline == nil {
		t.Fatalf("before: %+v", v)
	}

	// Taken: 3 days.
	p := s.vacation("POST", `{"days":3}`, me, 200)
	until := clock.Now().Add(72 * time.Hour).UTC()
	if p.Vacation.BudgetDays != 4 || !at(t, p.Vacation.Until).Equal(until) {
		t.Fatalf("taken: %+v, want budget 4 until %v", p.Vacation, until)
	}
	w := s.vacationView(id, other)
	if w.Version != v.Version+1 || !at(t, w.Seats[turn].Vacation).Equal(until) || w.Seats[1-turn].Vacation != nil {
		t.Fatalf("the other sees %+v (version was %d), want the seat on vacation until %v", w, v.Version, until)
	}
	if w.Hand.Deadline != nil {
		t.Fatalf("the clock still runs: deadline %s", *w.Hand.Deadline)
	}
	// The clock stays stopped: two days on, no timeout.
	clock.Add(36 * time.Hour)
	h.svc.Sweep(t.Context(), "test")
	if w2 := s.vacationView(id, other); w2.Version != w.Version || w2.Seats[turn].Away {
		t.Fatalf("after 36 h on vacation: %+v", w2)
	}

	// Ended early after 36 h: the second day has begun, the third has not.
	p = s.vacation("DELETE", ``, me, 200)
	if p.Vacation.BudgetDays != 5 || p.Vacation.Until != nil {
		t.Fatalf("ended after 36 h of 3 days: %+v, want budget 5 and none", p.Vacation)
	}
	w = s.vacationView(id, other)
	if w.Version != v.Version+2 || w.Seats[turn].Vacation != nil || w.Hand.Deadline == nil ||
		!at(t, w.Hand.Deadline).Equal(clock.Now().Add(moveTime*time.Second).UTC()) {
		t.Fatalf("after the end: %+v, want a fresh moveTime from now", w)
	}

	// Ended by a move of any type: "away" here.
	s.vacation("POST", `{"days":2}`, me, 200)
	w = s.vacationView(id, other)
	r := s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(w.Version)+`,"type":"away"}`, me)
	if r.status != 200 {
		t.Fatalf("away: %d %s", r.status, r.body)
	}
	if p := s.myVacation(me); p.Vacation.Until != nil || p.Vacation.BudgetDays != 4 {
		t.Fatalf("after a move: %+v, want none and budget 5-2+1", p.Vacation)
	}
	if w = s.vacationView(id, other); w.Seats[turn].Vacation != nil {
		t.Fatalf("after a move the view still shows the vacation: %+v", w)
	}
	r = s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(w.Version)+`,"type":"back"}`, me)
	if r.status != 200 {
		t.Fatalf("back: %d %s", r.status, r.body)
	}

	// Ended by its time: the sweep ends it in the game (version + 1), the
	// seat that must act gets a fresh moveTime, no day comes back.
	w = s.vacationView(id, other)
	waiting := *w.Hand.Turn
	wkey := keys[waiting]
	s.vacation("POST", `{"days":1}`, wkey, 200)
	w = s.vacationView(id, other)
	clock.Add(24*time.Hour + time.Second)
	if n, err := h.svc.Sweep(t.Context(), "test"); err != nil || n < 1 {
		t.Fatalf("the sweep at the vacation's end: %d, %v", n, err)
	}
	w2 := s.vacationView(id, other)
	if w2.Version != w.Version+1 || w2.Seats[waiting].Vacation != nil || w2.Seats[waiting].Away ||
		w2.Hand.Deadline == nil || !at(t, w2.Hand.Deadline).Equal(clock.Now().Add(moveTime*time.Second).UTC()) {
		t.Fatalf("after its time: %+v (was version %d)", w2, w.Version)
	}
	if p := s.myVacation(wkey); p.Vacation.Until != nil {
		t.Fatalf("after its time: %+v", p.Vacation)
	}
	budget := s.myVacation(wkey).Vacation.BudgetDays

	// The budget grows by 2 every 30 days from the profile's making, to 21.
	clock.Add(30 * 24 * time.Hour)
	if got := s.myVacation(wkey).Vacation.BudgetDays; got != budget+2 {
		t.Fatalf("30 days on: budget %d, want %d", got, budget+2)
	}
	clock.Add(400 * 24 * time.Hour)
	if got := s.myVacation(wkey).Vacation.BudgetDays; got != 21 {
		t.Fatalf("a year on: budget %d, want 21", got)
	}
	s.vacation("POST", `{"days":21}`, wkey, 200)
}

// No push goes to a key on vacation but the end's; its other games wait,
// including a game it joins while away; a rated game's clock is not
// stopped (the service's rule, tested on the stored game).
func TestAVacationStopsOnlyUnratedClocks(t *testing.T) {
	st := &game.Stored{Seats: make([]game.SeatAuth, 2), MoveTime: 60}
	st.Seats[0].Vacation = 1
	for _, c := range []struct {
		rated      bool
		tournament string
		stopped    bool
	}{{false, "", true}, {true, "", false}, {false, "k3x9q2m7ab", false}} {
		st.Rated, st.Tournament = c.rated, c.tournament
		if got := st.ClockStopped(0); got != c.stopped {
			t.Errorf("rated %v tournament %q: stopped %v, want %v", c.rated, c.tournament, got, c.stopped)
		}
		if st.ClockStopped(1) {
			t.Errorf("a seat not on vacation is stopped")
		}
	}
}

// A game joined while on vacation waits for its key; a crash between the
// record's write and the games' is finished by the sweep.
func TestAVacationReachesEveryGame(t *testing.T) { eachStore(t, testAVacationReachesEveryGame) }

func testAVacationReachesEveryGame(t *testing.T, st store.Store) {
	s, clock := newClockServer(t, st, 603)
	h := s.h.(*Handler)
	id, _ := s.twoPlayers(3600)
	s.vacation("POST", `{"days":2}`, keyBea, 200)
	// Bea joins another game while away: her seat there is on vacation.
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"name":"Ana","key":"`+keyAna+`","moveTime":3600}`, "")
	var a seatAnswerJSON
	json.Unmarshal(r.body, &a)
	id2 := mustView(t, a.Game).ID
	if r := s.do("POST", "/api/games/"+id2+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, ""); r.status != 201 {
		t.Fatalf("join: %d", r.status)
	}
	until := clock.Now().Add(48 * time.Hour).UTC()
	for _, g := range []string{id, id2} {
		if v := s.vacationView(g, keyAna); !at(t, v.Seats[1].Vacation).Equal(until) {
			t.Fatalf("game %s: Bea's seat %+v, want on vacation until %v", g, v.Seats[1], until)
		}
	}
	// A crash after the record: the record says the vacation ended and
	// its games are to be told; the request died before telling them.
	ctx := context.Background()
	recID := game.PlayerID(game.HashToken(keyBea))
	item, err := st.Load(ctx, recID)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.DecodePlayer(item.State)
	if err != nil {
		t.Fatal(err)
	}
	rec.Vac.Start, rec.Vac.Until, rec.Vac.Days, rec.Vac.Pending = 0, 0, 0, true
	if err := st.Save(ctx, recID, game.EncodePlayer(rec), item.Version, clock.Now(), clock.Now(), item.Expires); err != nil {
		t.Fatal(err)
	}
	if v := s.vacationView(id, keyAna); v.Seats[1].Vacation == nil {
		t.Fatal("the crash was not simulated")
	}
	if _, err := h.svc.Sweep(t.Context(), "test"); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{id, id2} {
		if v := s.vacationView(g, keyAna); v.Seats[1].Vacation != nil {
			t.Fatalf("game %s after the sweep: Bea's seat %+v, want no vacation", g, v.Seats[1])
		}
	}
	if item, err := st.Load(ctx, recID); err != nil || !item.Due.IsZero() {
		t.Fatalf("the record is still due (%v, %v)", item.Due, err)
	}
}
