package bot

import (
	"math"
	"math/bits"

	"tessera/engine"
)

// Advice is the expert's reading of one decision (a hint, and the look
// back at a hand): its choice and what it expects of each legal play.
type Advice struct {
	Best  engine.Move
	Plays []PlayAdvice // the view's legal plays, in its order
}

// PlayAdvice is what the expert expects of one play.
type PlayAdvice struct {
	Move engine.Move
	// Points: the points of the rest of this hand, the seat's team's
	// minus the mean of the other teams', averaged over the expert's
	// weighted worlds.
	Points float64
	// Win: the chance the seat's team wins the match: 1 or 0 in a world
	// where a team reaches the target this hand, else the race model's
	// estimate from the scores at the hand's end (raceWin).
	Win float64
}

// Advise is the expert's advice for the seat whose view this is: the move
// Expert makes with the same view and seed, and for every legal play its
// expected points and chance to win. False when the seat has no play to
// choose (not its turn, the redeal question, a spectator's view). Like
// the expert it reads nothing but the view (TestBotCodeUsesNoHiddenState),
// so it tells nothing the seat could not know.
func Advise(v *engine.View, seed uint64) (Advice, bool) {
	return AdviseWith(v, seed, ExpertPlayouts)
}

// AdviseWith is Advise with budget playouts in place of ExpertPlayouts
// (Best is then the expert's choice at that budget).
func AdviseWith(v *engine.View, seed uint64, budget int) (Advice, bool) {
	p, legal, _, _ := searchable(v, seed) // nil: no play to choose (the redeal question, a spectator)
	if p == nil {
		return Advice{}, false
	}
	t := make([]tally, len(legal))
	best, _ := expertSearch(p, legal, seed, budget, expertBeta, t)
	if t[0].weight == 0 {
		// The end of the hand was solved exactly: the numbers come from
		// the expert's playouts over its worlds, searched again.
		searchWith(p, legal, budget, newRandFor(seed), newSampler(p), newObserver(p, expertBeta).weight, t)
	}
	a := Advice{Best: best, Plays: make([]PlayAdvice, len(legal))}
	for i, mv := range legal {
		a.Plays[i] = PlayAdvice{Move: mv, Points: t[i].points / t[i].weight, Win: t[i].win / t[i].weight}
		if t[i].weight == 0 {
			a.Plays[i].Points, a.Plays[i].Win = 0, raceWin(p.opts, scoresOf(p), p.opts.TeamOf(p.seat))
		}
	}
	return a, true
}

// tally adds up one candidate's playouts for Advise.
type tally struct{ weight, points, win float64 }

func (t *tally) add(p *position, w float64, scores, gain *[4]int) {
	me := p.opts.TeamOf(p.seat)
	teams := p.opts.Teams()
	t.weight += w
	t.points += w * final(gain, me, teams)
	var after [4]int
	for i := range teams {
		after[i] = scores[i] + gain[i]
		if after[i] >= p.opts.Target {
			// A playout ends when the first team reaches the target.
			if i == me {
				t.win += w
			}
			return
		}
	}
	t.win += w * raceWin(p.opts, after, me)
}

func scoresOf(p *position) [4]int {
	var s [4]int
	copy(s[:], p.scores)
	return s
}

// race is the race model's measure of one table: the mean and standard
// deviation of the points one team scores in a hand (medium players on
// every seat; TestRaceModelFitsPlay measures them again and checks its
// predictions against the matches' outcomes).
type race struct{ mean, sd float64 }

// races by table (engine.Tables' names).
var races = map[string]race{
	"fiveup2": {28.8, 20.2}, "fiveup3": {28.1, 21.5}, "fiveup4": {24.6, 19.8},
	"fiveup4pairs": {42.4, 25.2}, "partnership": {7.4, 9.5},
	"block2": {4.7, 6.5}, "block3": {5.3, 9.0}, "block4": {5.7, 11.3},
}

// raceWin estimates the chance that team me wins a match from the
// scores at the start of a hand: a team that needs d more points needs T
// more hands, T normal with mean d/mean and variance d sd^2/mean^3 (the
// renewal theorem's, for hands of mean +- sd points), the teams
// independent; the chance is that me's T is the least,
// integral of f_me(x) prod over the others of (1 - F_other(x)) dx, summed
// on a grid (raceSteps points over the mean +- 5 deviations of me's T).
func raceWin(o engine.Options, scores [4]int, me int) float64 {
	rc, ok := races[tableName(o)]
	if !ok {
		rc = race{mean: 20, sd: 15}
	}
	teams := o.Teams()
	var mu, sd [4]float64
	for t := range teams {
		need := float64(max(o.Target-scores[t], 1))
		mu[t] = need / rc.mean
		sd[t] = max(math.Sqrt(need*rc.sd*rc.sd/(rc.mean*rc.mean*rc.mean)), 0.25)
	}
	lo, hi := mu[me]-5*sd[me], mu[me]+5*sd[me]
	dx := (hi - lo) / raceSteps
	p := 0.0
	for i := range raceSteps {
		x := lo + (float64(i)+0.5)*dx
		z := (x - mu[me]) / sd[me]
		f := math.Exp(-z*z/2) / (sd[me] * math.Sqrt(2*math.Pi))
		for t := range teams {
			if t != me {
				f *= 0.5 * math.Erfc((x-mu[t])/(sd[t]*math.Sqrt2)) // P(T_t > x)
			}
		}
		p += f * dx
	}
	return min(max(p, 0), 1)
}

// raceSteps is the race integral's grid.
const raceSteps = 40

// tableName is engine.Tables' name of o's table.
func tableName(o engine.Options) string {
	return tableNames[tableKey{o.Variant, o.Players, o.Pairs}]
}

// tableKey names a table: what engine.Tables tells apart.
type tableKey struct {
	variant engine.Variant
	players int
	pairs   bool
}

// tableNames are engine.Tables' names, read once (raceWin runs for every
// playout of a hint: engine.Tables builds its list anew each call).
var tableNames = func() map[tableKey]string {
	out := map[tableKey]string{}
	for _, t := range engine.Tables() {
		out[tableKey{t.Options.Variant, t.Options.Players, t.Options.Pairs}] = t.Name
	}
	return out
}()

// Notes are a seat's table notes: what its view tells of the tiles not
// yet played, public information and its own hand only.
type Notes struct {
	// Out[n] counts the tiles showing n (a double once) that are neither
	// on the table nor in the seat's hand.
	Out [7]int
	// Pips is the pips of those tiles.
	Pips int
	// Lacks[s] lists the numbers seat s showed it holds none of this
	// hand (a pass or a draw on ends showing them): none for the seat
	// itself.
	Lacks [][]int
}

// TableNotes reads a seat's notes from its view; false for a view with
// no hand in play for the seat (a spectator's, between matches).
func TableNotes(v *engine.View) (Notes, bool) {
	p, err := readPosition(v)
	if err != nil {
		return Notes{}, false
	}
	n := Notes{Lacks: make([][]int, p.opts.Players)}
	for m := p.unseen; m != 0; m &= m - 1 {
		t := tileOf[bits.TrailingZeros32(m)]
		n.Out[t[0]]++
		if t[1] != t[0] {
			n.Out[t[1]]++
		}
		n.Pips += t.Pips()
	}
	for s := range p.opts.Players {
		n.Lacks[s] = []int{}
		if s == p.seat {
			continue
		}
		for num := range 7 {
			if p.void[s]&(1<<num) != 0 {
				n.Lacks[s] = append(n.Lacks[s], num)
			}
		}
	}
	return n, true
}
