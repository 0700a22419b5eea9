// Command arena plays computer players against each other and prints their
// win rates with 95% Wilson confidence intervals:
//
//	go run ./engine/bot/cmd/arena -a medium -b easy -config fiveup2 -n 1000 -seed 1
//
// Levels: easy, medium, hard, expert and, for measuring only, the
// expert's variants (expert-uniform, expert-beta0.1, 0.6, 1, 2, 3;
// expert-x2, expert-x4: larger budgets; hard-fair: hard's playouts reading
// the risk as the mover sees it; expert-resample1, 2: worlds drawn
// by weight; expert-win: choosing by the chance to win) and omniscient
// (reads every hand).
//
// Deals are mirrored: each match seed is played once per seating of the two
// levels (see arena.go), so luck of the deal cancels out.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"tessera/engine/bot"
)

func main() {
	a := flag.String("a", "medium", "level A")
	b := flag.String("b", "easy", "level B")
	config := flag.String("config", "fiveup2", "fiveup2, fiveup3, fiveup4, fiveup4pairs or partnership")
	n := flag.Int("n", 1000, "matches to play (rounded up to whole mirrored groups)")
	seed := flag.Uint64("seed", 1, "base seed")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "matches played at once")
	flag.Parse()

	levels := map[string]maker{"omniscient": omniscient}
	for name, p := range bot.Levels() {
		levels[name] = fixed(p)
	}
	// Measurement levels (not offered by the API): the expert's search
	// over uniform worlds at the same budget, other betas and budgets.
	levels["expert-uniform"] = fixed(bot.ExpertWith(0, bot.ExpertPlayouts))
	for _, beta := range []string{"0.1", "0.6", "1", "2", "3"} {
		b, _ := strconv.ParseFloat(beta, 64)
		levels["expert-beta"+beta] = fixed(bot.ExpertWith(b, bot.ExpertPlayouts))
	}
	// The expert's worlds resampled by weight from a pool of 1x, 2x its
	// budget.
	for _, k := range []int{1, 2} {
		levels["expert-resample"+strconv.Itoa(k)] = fixed(bot.ExpertResampling(1, bot.ExpertPlayouts, k))
	}
	// The expert choosing by the chance to win the match.
	levels["expert-win"] = fixed(bot.ExpertByWin())
	// The expert with a larger budget (2x, 4x ExpertPlayouts).
	for _, k := range []int{2, 4} {
		levels["expert-x"+strconv.Itoa(k)] = fixed(bot.ExpertWith(1, k*bot.ExpertPlayouts))
	}
	// Hard with the risk in its playouts read as the mover sees it.
	levels["hard-fair"] = fixed(bot.HardFair(bot.HardPlayouts))
	// The expert's search as one tree over the seat's information (ISMCTS),
	// exploration constants 10, 25, 50.
	for _, c := range []int{10, 25, 50} {
		levels["expert-is"+strconv.Itoa(c)] = fixed(bot.ExpertISMCTS(bot.ExpertPlayouts, float64(c)))
	}
	pa, pb := levels[*a], levels[*b]
	opts, ok := configs[*config]
	if pa == nil || pb == nil || !ok {
		fmt.Fprintln(os.Stderr, "arena: unknown level or config")
		flag.Usage()
		os.Exit(2)
	}
	start := time.Now()
	sum, err := run(opts, pa, pb, *n, *seed, *workers)
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
	fmt.Printf("config %s: A=%s vs B=%s, %d matches (seed %d, %d workers, %.1fs)\n",
		*config, *a, *b, sum.Matches, *seed, *workers, time.Since(start).Seconds())
	fmt.Print(sum.Report())
}
