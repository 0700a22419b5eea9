package workertest

import (
	"net/http"
	"slices"
	"testing"

	"tessera/internal/testenv"
)

// TestVacationAndTrophiesThroughTheWorker: API.md's "Vacation" and
// "Trophies" on the Worker (its D1 record, its Cron sweep on the test
// build's clock): a vacation stops the waiting seat's clock and shows in
// the other's view, its time ends it through the sweep with a fresh
// moveTime; a finished match gives first-match once, on the view and the
// profile.
func TestVacationAndTrophiesThroughTheWorker(t *testing.T) {
	base := testenv.WorkerFrom(t, testenv.WorkerBuild(t, "testclock"))
	keys := []string{"workerVacationKeyAna-0123456789", "workerVacationKeyBea-0123456789"}
	type vview struct {
		Version int    `json:"version"`
		Status  string `json:"status"`
		Seats   []struct {
			Player   *string `json:"player"`
			Vacation *string `json:"vacation"`
		} `json:"seats"`
		Hand *struct {
			Turn     *int    `json:"turn"`
			Deadline *string `json:"deadline"`
		} `json:"hand"`
		Trophies []struct {
			Seat int    `json:"seat"`
			ID   string `json:"id"`
		} `json:"trophies"`
	}
	ana := create(t, base, `{"variant":"fiveup","players":2,"redeal":false,"target":5,"moveTime":3600,"name":"Ana","key":"`+keys[0]+`"}`)
	games := base + "/api/games/" + ana.Game.ID
	do(t, "POST", games+"/seats", "", `{"name":"Bea","key":"`+keys[1]+`"}`).decode(t, "join", http.StatusCreated, nil)
	var v vview
	do(t, "GET", games, "", "").decode(t, "poll", http.StatusOK, &v)
	turn := *v.Hand.Turn
	var p struct {
		Vacation struct {
			BudgetDays int     `json:"budgetDays"`
			Until      *string `json:"until"`
		} `json:"vacation"`
	}
	do(t, "POST", base+"/api/me/vacation", keys[turn], `{"days":1}`).decode(t, "vacation", http.StatusOK, &p)
	if p.Vacation.BudgetDays != 6 || p.Vacation.Until == nil {
		t.Fatalf("taken: %+v", p.Vacation)
	}
	var w vview
	do(t, "GET", games, "", "").decode(t, "poll", http.StatusOK, &w)
	if w.Version != v.Version+1 || w.Seats[turn].Vacation == nil || *w.Seats[turn].Vacation != *p.Vacation.Until || w.Hand.Deadline != nil {
		t.Fatalf("on vacation: %+v", w)
	}
	var swept struct {
		Swept int `json:"swept"`
	}
	do(t, "POST", base+"/api/__test/clock", "", `{"advance": 86401}`).decode(t, "clock", http.StatusOK, &swept)
	do(t, "GET", games, "", "").decode(t, "poll", http.StatusOK, &w)
	if swept.Swept < 1 || w.Version != v.Version+2 || w.Seats[turn].Vacation != nil || w.Hand.Deadline == nil {
		t.Fatalf("after its time (swept %d): %+v", swept.Swept, w)
	}

	// They play it out: each seat earns first-match, shown on the
	// finished view and once on the profile.
	playOut(t, base, ana.Game.ID, keys)
	do(t, "GET", games, "", "").decode(t, "poll", http.StatusOK, &w)
	if w.Status != "finished" {
		t.Fatalf("the match did not end: %s", w.Status)
	}
	for seat := range 2 {
		if !slices.ContainsFunc(w.Trophies, func(tr struct {
			Seat int    `json:"seat"`
			ID   string `json:"id"`
		}) bool {
			return tr.Seat == seat && tr.ID == "first-match"
		}) {
			t.Errorf("seat %d did not earn first-match: %+v", seat, w.Trophies)
		}
	}
	var prof struct {
		Trophies []struct {
			ID string `json:"id"`
		} `json:"trophies"`
	}
	do(t, "GET", base+"/api/players/"+*w.Seats[0].Player, "", "").decode(t, "profile", http.StatusOK, &prof)
	n := 0
	for _, tr := range prof.Trophies {
		if tr.ID == "first-match" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the profile holds first-match %d times: %+v", n, prof.Trophies)
	}
}

// TestTableTalkThroughTheWorker: API.md's "Chat" on the Worker (its D1
// item beside the game): a message, the view's chat, GET with after, a
// spectator refused, the game's version untouched.
func TestTableTalkThroughTheWorker(t *testing.T) {
	base := testenv.WorkerFrom(t, testenv.WorkerBuild(t, ""))
	keys := []string{"workerChatKeyAna-0123456789abcdef", "workerChatKeyBea-0123456789abcdef"}
	ana := create(t, base, `{"variant":"fiveup","players":2,"name":"Ana","key":"`+keys[0]+`"}`)
	games := base + "/api/games/" + ana.Game.ID
	do(t, "POST", games+"/seats", "", `{"name":"Bea","key":"`+keys[1]+`"}`).decode(t, "join", http.StatusCreated, nil)
	type cv struct {
		Version int  `json:"version"`
		Chat    *int `json:"chat"`
	}
	var before, after cv
	do(t, "GET", games, keys[1], "").decode(t, "poll", http.StatusOK, &before)
	var sent struct {
		Message struct {
			Seq  int    `json:"seq"`
			Text string `json:"text"`
		} `json:"message"`
	}
	do(t, "POST", games+"/chat", keys[0], `{"text":"Bella mossa!","messageId":"w1"}`).decode(t, "chat", http.StatusCreated, &sent)
	do(t, "POST", games+"/chat", keys[0], `{"text":"Bella mossa!","messageId":"w1"}`).decode(t, "chat retry", http.StatusOK, nil)
	do(t, "POST", games+"/chat", keys[1], `{"reaction":"thanks"}`).decode(t, "chat", http.StatusCreated, nil)
	do(t, "GET", games, keys[1], "").decode(t, "poll", http.StatusOK, &after)
	if sent.Message.Seq != 1 || after.Chat == nil || *after.Chat != 2 || after.Version != before.Version {
		t.Fatalf("sent %+v; view before %+v after %+v", sent, before, after)
	}
	var read struct {
		Messages []struct {
			Seq int `json:"seq"`
		} `json:"messages"`
	}
	do(t, "GET", games+"/chat?after=1", keys[0], "").decode(t, "read", http.StatusOK, &read)
	if len(read.Messages) != 1 || read.Messages[0].Seq != 2 {
		t.Fatalf("after=1: %+v", read)
	}
	if a := do(t, "GET", games+"/chat", "", ""); a.status != 401 {
		t.Errorf("a spectator reads the talk: %d", a.status)
	}
}
