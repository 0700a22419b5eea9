package workertest

import (
	"net/http"
	"testing"
	"time"

	"tessera/internal/testenv"
)

// TestTheCronTriggerTimesOutALateSeat: with a one-minute move clock, the
// seat that must act and does not is made away by the sweep the Cron
// Trigger runs, and the computer plays for it. Nobody polls the game
// until then (a poll would apply the timeout itself): the test watches the
// players' "my games" (GET /api/me, which only reads). A test build of the
// Worker (testclock) moves its clock a minute on and runs that sweep:
// no real minute passes.
func TestTheCronTriggerTimesOutALateSeat(t *testing.T) {
	base := testenv.WorkerFrom(t, testenv.WorkerBuild(t, "testclock"))
	keys := []string{"workerClockTestKeyAna-012345678", "workerClockTestKeyBea-012345678"}
	ana := create(t, base, `{"variant": "fiveup", "players": 2, "redeal": false, "moveTime": 60, "name": "Ana", "key": "`+keys[0]+`"}`)
	games := base + "/api/games/" + ana.Game.ID
	do(t, "POST", games+"/seats", "", `{"name": "Bea", "key": "`+keys[1]+`"}`).decode(t, "join", http.StatusCreated, nil)
	var start view
	do(t, "GET", games, "", "").decode(t, "poll", http.StatusOK, &start)
	late := actor(t, start)
	type mine struct {
		Games []struct {
			ID        string `json:"id"`
			YourTurn  bool   `json:"yourTurn"`
			UpdatedAt string `json:"updatedAt"`
		} `json:"games"`
	}
	entry := func() (yourTurn bool, updatedAt string) {
		var m mine
		do(t, "GET", base+"/api/me", keys[late], "").decode(t, "my games", http.StatusOK, &m)
		if len(m.Games) != 1 || m.Games[0].ID != ana.Game.ID {
			t.Fatalf("my games = %+v", m)
		}
		return m.Games[0].YourTurn, m.Games[0].UpdatedAt
	}
	turn, was := entry()
	if !turn {
		t.Fatalf("seat %d is to act but its my-games entry says it is not its turn", late)
	}
	// Before the deadline the sweep does nothing; past it, it takes the game.
	var moved struct {
		Swept int `json:"swept"`
	}
	do(t, "POST", base+"/api/__test/clock", "", `{"advance": 30}`).decode(t, "clock", http.StatusOK, &moved)
	if turn, at := entry(); moved.Swept != 0 || !turn || at != was {
		t.Fatalf("30 s before the deadline the sweep took %d games (your turn %v, updated %s)", moved.Swept, turn, at)
	}
	do(t, "POST", base+"/api/__test/clock", "", `{"advance": 31}`).decode(t, "clock", http.StatusOK, &moved)
	if moved.Swept != 1 {
		t.Fatalf("past the deadline the sweep took %d games, want 1", moved.Swept)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		turn, at := entry()
		if at != was {
			if turn {
				t.Errorf("the game changed at %s but it is still seat %d's turn", at, late)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the sweep seat %d's game did not change", late)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var v view
	do(t, "GET", games, "", "").decode(t, "poll", http.StatusOK, &v)
	if !v.Seats[late].Away || v.Version <= start.Version {
		t.Errorf("after the sweep: seat %d away %v, version %d -> %d", late, v.Seats[late].Away, start.Version, v.Version)
	}
}
