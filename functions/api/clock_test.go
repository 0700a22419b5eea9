package api

import (
	"encoding/json"
	"strings"
	"sync"
	"tessera/engine"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/store"
)

// testClock is a clock the test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *testClock) Add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// newClockServer is a server on st whose clock the test moves.
func newClockServer(t *testing.T, st store.Store, seed uint64) (*server, *testClock) {
	s := newServer(t, st, seed)
	clock := &testClock{now: fixedNow}
	s.h = New(Config{Store: st, Rand: seededReader(seed), Now: clock.Now})
	return s, clock
}

// clockView is the clock's part of a view.
type clockView struct {
	Version int64 `json:"version"`
	Options struct {
		MoveTime *int `json:"moveTime"`
	} `json:"options"`
	Seats []struct {
		Away bool `json:"away"`
	} `json:"seats"`
	Hand *struct {
		Turn     *int    `json:"turn"`
		Phase    string  `json:"phase"`
		Deadline *string `json:"deadline"`
	} `json:"hand"`
	You *struct {
		Legal []struct {
			Tile [2]int `json:"tile"`
			End  string `json:"end"`
		} `json:"legal"`
		Confirm bool `json:"confirm"`
	} `json:"you"`
	Log []struct {
		Seq    int    `json:"seq"`
		Type   string `json:"type"`
		Seat   int    `json:"seat"`
		Reason string `json:"reason"`
		At     string `json:"at"`
	} `json:"log"`
}

func (s *server) clockView(id, token string) clockView {
	s.t.Helper()
	r := s.do("GET", "/api/games/"+id, "", token)
	var v clockView
	if r.status != 200 || json.Unmarshal(r.body, &v) != nil {
		s.t.Fatalf("poll: %d %s", r.status, r.body)
	}
	return v
}

// twoPlayers starts a two-person Five Up game (no redeal) with moveTime
// and returns it with both keys.
func (s *server) twoPlayers(moveTime int) (string, []string) {
	s.t.Helper()
	mt := ""
	if moveTime > 0 {
		mt = `,"moveTime":` + itoa(int64(moveTime))
	}
	r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"redeal":false,"target":250,"name":"Ana","key":"`+keyAna+`"`+mt+`}`, "")
	var a seatAnswerJSON
	if r.status != 201 || json.Unmarshal(r.body, &a) != nil {
		s.t.Fatalf("create: %d %s", r.status, r.body)
	}
	id := mustView(s.t, a.Game).ID
	if r := s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, ""); r.status != 201 {
		s.t.Fatalf("join: %d %s", r.status, r.body)
	}
	return id, []string{keyAna, keyBea}
}

func TestMoveTimeIsStrict(t *testing.T) {
	s := newServer(t, nil2mem(), 501)
	for _, mt := range []string{"1.5", `"60"`, "59", "2592001", "0", "-60", "true", "60.0"} {
		if r := s.do("POST", "/api/games", `{"variant":"fiveup","name":"Ana","moveTime":`+mt+`}`, ""); r.status != 400 {
			t.Errorf("moveTime %s: %d %s, want 400", mt, r.status, r.body)
		}
	}
	for mt, want := range map[string]string{"60": "60", "2592000": "2592000", "null": "null"} {
		r := s.do("POST", "/api/games", `{"variant":"fiveup","name":"Ana","moveTime":`+mt+`}`, "")
		if r.status != 201 || !strings.Contains(string(r.body), `"moveTime":`+want) {
			t.Errorf("moveTime %s: %d, body without moveTime %s", mt, r.status, want)
		}
	}
}

func TestDeadlinesAndTimeouts(t *testing.T) { eachStore(t, testDeadlinesAndTimeouts) }

func testDeadlinesAndTimeouts(t *testing.T, st store.Store) {
	s, clock := newClockServer(t, st, 502)
	id, keys := s.twoPlayers(3600)
	v := s.clockView(id, keys[0])
	turn := *v.Hand.Turn
	start := clock.Now()
	if v.Hand.Deadline == nil || *v.Hand.Deadline != start.Add(time.Hour).Format(time.RFC3339) {
		t.Fatalf("deadline %v, want the join's time + 1 h", v.Hand.Deadline)
	}
	if *v.Options.MoveTime != 3600 {
		t.Fatalf("options.moveTime %v", v.Options.MoveTime)
	}
	for _, e := range v.Log {
		if e.At != start.Format(time.RFC3339) {
			t.Fatalf("event %d at %q, want the join's time", e.Seq, e.At)
		}
	}
	m := s.me(keys[turn])
	if !m.Games[0].YourTurn || m.Games[0].Deadline == nil || *m.Games[0].Deadline != *v.Hand.Deadline {
		t.Errorf("/api/me for the seat to play: %+v", m.Games[0])
	}
	if o := s.me(keys[1-turn]); o.Games[0].YourTurn || o.Games[0].Deadline != nil {
		t.Errorf("/api/me for the other: %+v, want no deadline", o.Games[0])
	}
	// A minute before the deadline nothing happens; at it, any request
	// times the seat out, as one change.
	clock.Add(59 * time.Minute)
	if again := s.clockView(id, ""); again.Version != v.Version {
		t.Fatalf("a poll before the deadline changed the game: %d -> %d", v.Version, again.Version)
	}
	clock.Add(time.Minute)
	after := s.clockView(id, "")
	if after.Version != v.Version+1 {
		t.Fatalf("after the deadline: version %d, want %d (one change)", after.Version, v.Version+1)
	}
	if !after.Seats[turn].Away || after.Seats[1-turn].Away {
		t.Fatalf("away %v, want seat %d only", after.Seats, turn)
	}
	var away *struct {
		Seq    int    `json:"seq"`
		Type   string `json:"type"`
		Seat   int    `json:"seat"`
		Reason string `json:"reason"`
		At     string `json:"at"`
	}
	for i := range after.Log {
		if after.Log[i].Type == "away" {
			away = &after.Log[i]
		}
	}
	if away == nil || away.Seat != turn || away.Reason != "timeout" || away.At != clock.Now().Format(time.RFC3339) {
		t.Fatalf("away event %+v", away)
	}
	// The computer played for it: the other person is to play, on a new clock.
	if after.Hand.Turn == nil || *after.Hand.Turn != 1-turn || *after.Hand.Deadline != clock.Now().Add(time.Hour).Format(time.RFC3339) {
		t.Fatalf("after the computer's move: turn %v deadline %v", after.Hand.Turn, after.Hand.Deadline)
	}
	// back by a seat that is not away, away by one that is: 422.
	if r := s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(after.Version)+`,"type":"back"}`, keys[1-turn]); codeOf(r) != "illegal_move" {
		t.Errorf("back by a seat that is here: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(after.Version)+`,"type":"away"}`, keys[turn]); codeOf(r) != "illegal_move" {
		t.Errorf("away by a seat that is away: %d %s", r.status, r.body)
	}
	// The other goes away too: everyone is away, nothing is played, no deadline.
	r := s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(after.Version)+`,"type":"away"}`, keys[1-turn])
	if r.status != 200 {
		t.Fatalf("away: %d %s", r.status, r.body)
	}
	all := s.clockView(id, "")
	if all.Version != after.Version+1 || !all.Seats[0].Away || !all.Seats[1].Away || all.Hand.Deadline != nil || *all.Hand.Turn != 1-turn {
		t.Fatalf("everyone away: %+v", all)
	}
	clock.Add(48 * time.Hour)
	if still := s.clockView(id, ""); still.Version != all.Version {
		t.Fatalf("with everyone away the game changed: %d -> %d", all.Version, still.Version)
	}
	// Back: that seat must play now, with a new deadline from this moment.
	r = s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(all.Version)+`,"type":"back"}`, keys[1-turn])
	back := s.clockView(id, keys[1-turn])
	if r.status != 200 || back.Seats[1-turn].Away || back.Hand.Deadline == nil || *back.Hand.Deadline != clock.Now().Add(time.Hour).Format(time.RFC3339) {
		t.Fatalf("back: %d, deadline %v", r.status, back.Hand.Deadline)
	}
}

// The sweeper times a seat out without any request, and a timeout racing
// 31 other requests applies once.
func TestSweepAndRaces(t *testing.T) { eachStore(t, testSweepAndRaces) }

func testSweepAndRaces(t *testing.T, st store.Store) {
	s, clock := newClockServer(t, st, 503)
	h := s.h.(*Handler)
	id, keys := s.twoPlayers(60)
	v := s.clockView(id, "")
	if n, err := h.svc.Sweep(t.Context(), "test"); err != nil || n != 0 {
		t.Fatalf("Sweep before anything is due = %d, %v", n, err)
	}
	clock.Add(61 * time.Second)
	if n, err := h.svc.Sweep(t.Context(), "test"); err != nil || n != 1 {
		t.Fatalf("Sweep after the deadline = %d, %v, want 1", n, err)
	}
	after := s.clockView(id, "")
	if after.Version != v.Version+1 || !after.Seats[*v.Hand.Turn].Away {
		t.Fatalf("after the sweep: version %d, away %v", after.Version, after.Seats)
	}
	// The other seat's time runs out while 16 moves, 8 polls and 8 sweeps race.
	clock.Add(61 * time.Second)
	turn := *after.Hand.Turn
	lm := s.poll(id, keys[turn]).You.Legal[0]
	move := `{"version":` + itoa(after.Version) + `,"type":"play","tile":[` + itoa(int64(lm.Tile[0])) + `,` + itoa(int64(lm.Tile[1])) + `],"end":"` + lm.End + `"}`
	var wg sync.WaitGroup
	for i := 0; i < raceMoves; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch i % 4 {
			case 0, 1:
				s.do("POST", "/api/games/"+id+"/moves", move, keys[turn])
			case 2:
				s.do("GET", "/api/games/"+id, "", "")
			default:
				h.svc.Sweep(t.Context(), "test")
			}
		}()
	}
	wg.Wait()
	final := s.clockView(id, "")
	if final.Version != after.Version+1 || !final.Seats[turn].Away {
		t.Fatalf("after the race: version %d (want %d), away %v", final.Version, after.Version+1, final.Seats)
	}
	timeouts := 0
	for _, e := range final.Log {
		if e.Type == "away" && e.Seat == turn {
			timeouts++
		}
	}
	if timeouts != 1 {
		t.Fatalf("%d timeouts of seat %d, want 1", timeouts, turn)
	}
}

func nil2mem() store.Store { return newMemoryStore() }

// A quarter of the time left: the sweeper notes the reminder without
// changing the game's version, once.
func TestReminderIsNotedOnce(t *testing.T) { eachStore(t, testReminderIsNotedOnce) }

func testReminderIsNotedOnce(t *testing.T, st store.Store) {
	s, clock := newClockServer(t, st, 504)
	h := s.h.(*Handler)
	id, _ := s.twoPlayers(400)
	v := s.clockView(id, "")
	turn := *v.Hand.Turn
	clock.Add(299 * time.Second)
	if n, _ := h.svc.Sweep(t.Context(), "test"); n != 0 {
		t.Fatalf("a sweep before the reminder did %d", n)
	}
	clock.Add(time.Second)
	if n, err := h.svc.Sweep(t.Context(), "test"); err != nil || n != 1 {
		t.Fatalf("the reminder's sweep = %d, %v; want 1", n, err)
	}
	item := s.stored(id)
	g, err := game.OpenStored(id, item)
	// A note: a write of its own at the store's next version, the game's
	// version unchanged.
	if err != nil || g.Seats[turn].Reminded != 1 || g.Version != v.Version || item.Version != v.Version+1 {
		t.Fatalf("after the reminder: reminded %v, version %d at the store's %d (was %d), %v", g.Seats[turn].Reminded, g.Version, item.Version, v.Version, err)
	}
	if !item.Due.Equal(time.Unix(g.Seats[turn].Since+400, 0)) {
		t.Errorf("due %v, want the deadline", item.Due)
	}
	if n, _ := h.svc.Sweep(t.Context(), "test"); n != 0 {
		t.Errorf("a second sweep reminded again (%d)", n)
	}
	if got := s.clockView(id, ""); got.Version != v.Version {
		t.Errorf("the reminder changed the version %d -> %d", v.Version, got.Version)
	}
}

// A seat asked about a redeal has the clock too: when its time runs out it
// is away, the computer answers for it, and play goes on.
func TestTimeoutInTheRedealQuestion(t *testing.T) {
	for seed := uint64(1); seed < 400; seed++ {
		s, clock := newClockServer(t, newMemoryStore(), seed)
		r := s.do("POST", "/api/games", `{"variant":"fiveup","players":2,"redeal":true,"name":"Ana","key":"`+keyAna+`","moveTime":60}`, "")
		var a seatAnswerJSON
		json.Unmarshal(r.body, &a)
		id := mustView(t, a.Game).ID
		s.do("POST", "/api/games/"+id+"/seats", `{"name":"Bea","key":"`+keyBea+`"}`, "")
		v := s.clockView(id, "")
		if v.Hand.Phase != "confirm" {
			continue
		}
		if v.Hand.Deadline == nil {
			t.Fatal("no deadline while a seat is asked about a redeal")
		}
		clock.Add(61 * time.Second)
		if n, err := s.h.(*Handler).svc.Sweep(t.Context(), "test"); err != nil || n != 1 {
			t.Fatalf("Sweep = %d, %v", n, err)
		}
		after := s.clockView(id, "")
		away := 0
		for _, seat := range after.Seats {
			if seat.Away {
				away++
			}
		}
		if after.Version != v.Version+1 || away == 0 {
			t.Fatalf("after the timeout: version %d (was %d), %d away", after.Version, v.Version, away)
		}
		for _, e := range after.Log {
			if e.Type == "keep" || e.Type == "redeal" {
				return // the computer answered for the seat that timed out
			}
		}
		t.Fatalf("nobody answered the redeal question: %+v", after.Log)
	}
	t.Fatal("no seed in 400 deals a redeal question: the test proves nothing")
}

// A seat's away and back moves are bounded per hand: past
// engine.MaxAskedChanges, 409 limit_reached, and nothing changes (attack
// kit D2: unbounded toggles grew every view).
func TestAwayAndBackTogglesAreBounded(t *testing.T) {
	s := newServer(t, newMemoryStore(), 77)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"name":"Ana"}`)
	kinds := []string{"away", "back"}
	var r response
	for i := 0; i <= engine.MaxAskedChanges; i++ {
		v := s.poll(id, "")
		r = s.do("POST", "/api/games/"+id+"/moves", `{"version":`+itoa(v.Version)+`,"type":"`+kinds[i%2]+`"}`, tokens[1])
		if i < engine.MaxAskedChanges && r.status != 200 {
			t.Fatalf("move %d (%s): %d %s", i+1, kinds[i%2], r.status, r.body)
		}
	}
	before := s.stored(id)
	if e := mustError(t, r); r.status != 409 || e.Error.Code != "limit_reached" {
		t.Fatalf("move %d: %d %s, want 409 limit_reached", engine.MaxAskedChanges+1, r.status, r.body)
	}
	if after := s.stored(id); after.Version != before.Version {
		t.Fatal("a refused toggle changed the game")
	}
}
