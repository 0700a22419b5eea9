package rating

import (
	"errors"
	"math"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// openskill.py's README example, with openskill's own parameters (β =
// 25/6, τ = 0): two teams of two, the first winning.
func TestOpenskillExample(t *testing.T) {
	p := Params{Mu0: 25, Sigma0: 25.0 / 3, Beta: 25.0 / 6, Tau: 0, Kappa: 0.0001}
	teams := [][]Rating{
		{{25, 25.0 / 3}, {32.444, 5.123}},
		{{43.381, 2.421}, {25.188, 6.211}},
	}
	got, err := p.Update(teams, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		team, player int
		mu, sigma    float64
	}{{0, 0, 28.669648, 8.071521}, {1, 1, 23.149503, 6.137861}} {
		r := got[c.team][c.player]
		if !near(r.Mu, c.mu, 1e-6) || !near(r.Sigma, c.sigma, 1e-6) {
			t.Errorf("team %d player %d: (%.6f, %.6f), want (%.6f, %.6f)", c.team, c.player, r.Mu, r.Sigma, c.mu, c.sigma)
		}
	}
	if teams[0][0].Mu != 25 {
		t.Error("the input changed")
	}
}

// With Tessera's constants: what a first duel does, by the paper's
// formulas worked by hand for two new players (symmetric: the winner gains
// what the loser loses, both σ shrink alike).
func TestTesseraDuel(t *testing.T) {
	p := Tessera
	a, b := p.New(), p.New()
	got, err := p.Update([][]Rating{{a}, {b}}, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	s2 := a.Sigma*a.Sigma + p.Tau*p.Tau
	c := math.Sqrt(2 * (s2 + p.Beta*p.Beta))
	// Winner: Ω = (σ²/c)(1 − 1/2); loser: Ω = (σ²/c)(−1/2 + ... ) =
	// (σ²/c)(0 − 1/2) over q = winner, plus (1 − 1) over q = itself.
	omega := s2 / c * 0.5
	delta := math.Sqrt(s2) / c * s2 / (c * c) * 0.25
	w, l := got[0][0], got[1][0]
	if !near(w.Mu, 25+omega, 1e-12) || !near(l.Mu, 25-omega, 1e-12) {
		t.Errorf("μ: %v and %v, want 25 ± %v", w.Mu, l.Mu, omega)
	}
	// The loser's Δ sums over both teams (q = winner and q = itself, whose
	// p is 1): the winner's over itself only.
	if !near(w.Sigma, math.Sqrt(s2*(1-delta)), 1e-12) {
		t.Errorf("winner σ %v, want %v", w.Sigma, math.Sqrt(s2*(1-delta)))
	}
	if l.Sigma >= math.Sqrt(s2) || w.Sigma >= math.Sqrt(s2) {
		t.Errorf("σ did not shrink: %v %v from %v", w.Sigma, l.Sigma, math.Sqrt(s2))
	}
	if Shown(a) != 1500 || Shown(w) <= 1500 || Shown(l) >= 1500 {
		t.Errorf("shown: new %d, winner %d, loser %d", Shown(a), Shown(w), Shown(l))
	}
	if Shown(w)-1500 != 1500-Shown(l) {
		t.Errorf("a duel of equals moves both alike: %d and %d", Shown(w), Shown(l))
	}
}

// Ties share the update: two equal players tied stay where they were (but
// for τ), and four players ranked 1, 2, 2, 4 keep the tied pair equal.
func TestTies(t *testing.T) {
	p := Tessera
	got, err := p.Update([][]Rating{{p.New()}, {p.New()}}, []int{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if !near(got[0][0].Mu, 25, 1e-9) || !near(got[1][0].Mu, 25, 1e-9) {
		t.Errorf("a tie between equals moved μ: %v %v", got[0][0].Mu, got[1][0].Mu)
	}
	four := [][]Rating{{p.New()}, {p.New()}, {p.New()}, {p.New()}}
	got, err = p.Update(four, Ranks([]int{90, 40, 40, 10}, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !(got[0][0].Mu > got[1][0].Mu && near(got[1][0].Mu, got[2][0].Mu, 1e-12) && got[2][0].Mu > got[3][0].Mu) {
		t.Errorf("ranks 1, 2, 2, 4: μ %v %v %v %v", got[0][0].Mu, got[1][0].Mu, got[2][0].Mu, got[3][0].Mu)
	}
	total := 0.0
	for _, team := range got {
		total += team[0].Mu - 25
	}
	if !near(total, 0, 1e-9) {
		t.Errorf("equal players: the changes sum to %v, want 0", total)
	}
}

// Within a team the player with more uncertainty moves more.
func TestTeamShares(t *testing.T) {
	p := Tessera
	got, err := p.Update([][]Rating{{{25, 8}, {25, 2}}, {{25, 5}, {25, 5}}}, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if d0, d1 := got[0][0].Mu-25, got[0][1].Mu-25; !(d0 > d1 && d1 > 0) {
		t.Errorf("shares: the uncertain player %v, the sure one %v", d0, d1)
	}
}

func TestRanks(t *testing.T) {
	for _, c := range []struct {
		scores []int
		winner int
		want   []int
	}{
		{[]int{90, 40, 40, 10}, -1, []int{1, 2, 2, 4}},
		{[]int{250, 260, 10}, 0, []int{1, 2, 3}}, // the winner reached the target first
		{[]int{10, 10}, -1, []int{1, 1}},
		{[]int{5, 250}, 1, []int{2, 1}},
		{[]int{100, 30, 30}, 0, []int{1, 2, 2}},
	} {
		got := Ranks(c.scores, c.winner)
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Ranks(%v, %d) = %v, want %v", c.scores, c.winner, got, c.want)
				break
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	p := Tessera
	for _, c := range []struct {
		teams [][]Rating
		ranks []int
	}{
		{nil, nil},
		{[][]Rating{{p.New()}}, []int{1}},
		{[][]Rating{{p.New()}, {}}, []int{1, 2}},
		{[][]Rating{{p.New()}, {p.New()}}, []int{1}},
		{[][]Rating{{p.New()}, {p.New()}}, []int{0, 1}},
		{[][]Rating{{{math.NaN(), 1}}, {p.New()}}, []int{1, 2}},
		{[][]Rating{{{25, 0}}, {p.New()}}, []int{1, 2}},
	} {
		if _, err := p.Update(c.teams, c.ranks); !errors.Is(err, ErrInput) {
			t.Errorf("Update(%v, %v): %v, want ErrInput", c.teams, c.ranks, err)
		}
	}
}

func BenchmarkUpdateFour(b *testing.B) {
	p := Tessera
	teams := [][]Rating{{p.New()}, {p.New()}, {p.New()}, {p.New()}}
	for b.Loop() {
		if _, err := p.Update(teams, []int{1, 2, 2, 4}); err != nil {
			b.Fatal(err)
		}
	}
}
