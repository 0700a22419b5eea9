// Command trace plays matches through the engine and prints, as JSON, what
// a model of the page needs of each (browsertest/perf/cost-model.mjs): for
// every move, who made it, the pushes the server's own code
// (game.Messages) sends for it, and each seat's view as far as the page's
// poll schedule reads it (status, phase, turn, you.seat, you.confirm,
// you.answers: pollState and nextPlay in api.js). The moves are the
// medium computer's, for every seat (people play about as well).
//
//	go run ./browsertest/perf/trace -n 3 -seed 1 > /tmp/traces.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"tessera/engine"
	"tessera/engine/bot"
	"tessera/functions/game"
)

// view is the part of a seat's view the page's Poller reads.
type view struct {
	Status string `json:"status"`
	Seats  int    `json:"seats"`
	Phase  string `json:"phase,omitempty"`
	Turn   *int   `json:"turn"`
	Seat   int    `json:"seat"`
	// Confirm and Answers: the view's you.confirm and you.answers.
	Confirm bool `json:"confirm"`
	Answers bool `json:"answers"`
}

type move struct {
	Seat   int            `json:"seat"`
	Pushes map[int]string `json:"pushes"` // seat -> kind ("turn", "end")
	Views  []view         `json:"views"`  // after the move, by seat
}

type trace struct {
	// WatchLeaseMs is game.WatchLease: how long a page's watch lasts (the
	// model renews it as watch.js does).
	WatchLeaseMs int64  `json:"watchLeaseMs"`
	Variant      string `json:"variant"`
	Players      int    `json:"players"`
	Target       int    `json:"target"`
	Start        []view `json:"start"`
	Moves        []move `json:"moves"`
}

func views(m *engine.Match) []view {
	out := make([]view, m.Options().Players)
	for s := range out {
		v := m.View(s)
		out[s] = view{Status: v.Status.String(), Seats: len(v.Seats), Seat: s}
		if v.Hand != nil {
			out[s].Phase, out[s].Turn = v.Hand.Phase.String(), v.Hand.Turn
		}
		if v.You != nil {
			out[s].Confirm, out[s].Answers = v.You.Confirm, v.You.Answers
		}
	}
	return out
}

func play(opts engine.Options, seed uint64) (trace, error) {
	m, err := engine.NewMatch(opts, engine.Seed{seed, seed * 7919})
	if err != nil {
		return trace{}, err
	}
	st := game.NewStored(m, []byte{1})
	for s := range opts.Players {
		if err := m.TakeSeat(s, engine.Seat{Name: fmt.Sprintf("P%d", s)}); err != nil {
			return trace{}, err
		}
		st.Seats[s].TokenHash = []byte{byte(s + 1)}
	}
	t := trace{WatchLeaseMs: game.WatchLease.Milliseconds(), Variant: opts.Rules().Name, Players: opts.Players, Target: opts.Target, Start: views(m)}
	for version := int64(2); m.Status() == engine.StatusPlaying; version++ {
		acts := m.ToAct()
		if len(acts) == 0 {
			return t, fmt.Errorf("nobody to act")
		}
		s := acts[0]
		mv, ok := bot.Medium(m.View(s), uint64(version)*31+seed)
		if !ok {
			return t, fmt.Errorf("seat %d has no move", s)
		}
		before := game.Snapshot(m)
		if err := m.Apply(s, mv); err != nil {
			return t, err
		}
		pushes := map[int]string{}
		for to, msg := range game.Messages("trace", version, m, st, before, st.Seats[s].TokenHash) {
			pushes[to] = msg.Kind
		}
		t.Moves = append(t.Moves, move{Seat: s, Pushes: pushes, Views: views(m)})
	}
	return t, nil
}

func main() {
	n := flag.Int("n", 3, "matches")
	seed := flag.Uint64("seed", 1, "first seed")
	players := flag.Int("players", 4, "players (Five Up alone)")
	target := flag.Int("target", 250, "target score")
	flag.Parse()
	var out []trace
	for i := range *n {
		t, err := play(engine.Options{Variant: engine.FiveUp, Players: *players, Target: *target}, *seed+uint64(i))
		if err != nil {
			fmt.Fprintln(os.Stderr, "trace:", err)
			os.Exit(1)
		}
		out = append(out, t)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "trace:", err)
		os.Exit(1)
	}
}
