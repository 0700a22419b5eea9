package workertest

import (
	"net/http"
	"testing"
	"time"

	"tessera/internal/testenv"
)

// TestTheCronTriggerTimesOutALateSeat: with a one-minute move clock, the
// seat that must act and does not is made away by the scheduled handler
// (the Cron Trigger, fired every 10 s by serve.mjs), and the computer plays
// for it. Nobody polls the game until then (a poll would apply the timeout
// itself): the test watches the players' "my games" (GET /api/me, which
// only reads). It waits a real minute.
func TestTheCronTriggerTimesOutALateSeat(t *testing.T) {
	if testing.Short() {
		t.Skip("waits a real minute")
	}
	base := testenv.Worker(t)
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
	time.Sleep(60 * time.Second) // the deadline; the sweep comes within 10 s after
	deadline := time.Now().Add(40 * time.Second)
	for {
		turn, at := entry()
		if at != was {
			if turn {
				t.Errorf("the game changed at %s but it is still seat %d's turn", at, late)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("100 s after the game started, no sweep has timed out seat %d", late)
		}
		time.Sleep(2 * time.Second)
	}
	var v view
	do(t, "GET", games, "", "").decode(t, "poll", http.StatusOK, &v)
	if !v.Seats[late].Away || v.Version <= start.Version {
		t.Errorf("after the sweep: seat %d away %v, version %d -> %d", late, v.Seats[late].Away, start.Version, v.Version)
	}
}
