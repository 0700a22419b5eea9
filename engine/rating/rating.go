// Package rating is the rating model of API.md "Ratings": Weng and Lin's
// Bayesian approximation of the Plackett-Luce model ("A Bayesian
// Approximation Method for Online Ranking", JMLR 12, 2011, Algorithm 4),
// written from the paper and API.md's statement of it. Pure functions, no
// I/O: the service stores the values and decides when a match is rated.
package rating

import (
	"errors"
	"math"
)

// Rating is one player's belief in a pool: a mean and a standard deviation
// of their skill.
type Rating struct {
	Mu    float64
	Sigma float64
}

// Params are the model's constants.
type Params struct {
	Mu0, Sigma0 float64 // a new player's rating
	Beta        float64 // the performance noise of one match
	Tau         float64 // the skill drift added before each match
	Kappa       float64 // the least a variance may shrink to, as a factor
}

// Tessera's constants (API.md): μ0 = 25, σ0 = 25/3, β = 25/3 (dominoes has
// more luck than chess), τ = 25/300, κ = 0.0001.
var Tessera = Params{Mu0: 25, Sigma0: 25.0 / 3, Beta: 25.0 / 3, Tau: 25.0 / 300, Kappa: 0.0001}

// New is a new player's rating under p.
func (p Params) New() Rating { return Rating{Mu: p.Mu0, Sigma: p.Sigma0} }

// ErrInput: teams and ranks that are no match (no teams, an empty team,
// a rank below 1, a count that differs, a value that is not finite).
var ErrInput = errors.New("rating: not a match")

// Update returns the ratings after one match: teams[i] are the ratings of
// team i's players, ranks[i] its place (1 is best; equal ranks tie). The
// result has the shape of teams; the inputs are not changed.
func (p Params) Update(teams [][]Rating, ranks []int) ([][]Rating, error) {
	n := len(teams)
	if n < 2 || len(ranks) != n {
		return nil, ErrInput
	}
	// 1. Every player's variance grows by τ².
	out := make([][]Rating, n)
	mu := make([]float64, n)   // μ_i
	var2 := make([]float64, n) // σ_i²
	for i, team := range teams {
		if len(team) == 0 || ranks[i] < 1 {
			return nil, ErrInput
		}
		out[i] = make([]Rating, len(team))
		for j, r := range team {
			if !finite(r.Mu) || !finite(r.Sigma) || r.Sigma <= 0 {
				return nil, ErrInput
			}
			s2 := r.Sigma*r.Sigma + p.Tau*p.Tau
			out[i][j] = Rating{Mu: r.Mu, Sigma: math.Sqrt(s2)}
			mu[i] += r.Mu
			var2[i] += s2
		}
	}
	// 2. c, and for each team q the sum S_q over the teams ranked no
	// better than q and the number A_q of teams sharing its rank.
	c := 0.0
	for i := range n {
		c += var2[i] + p.Beta*p.Beta
	}
	c = math.Sqrt(c)
	e := make([]float64, n) // exp(μ_i / c), scaled (below)
	// exp(μ/c) overflows for no realistic μ, but the ratios are what
	// count: scale by the largest.
	top := math.Inf(-1)
	for i := range n {
		top = math.Max(top, mu[i]/c)
	}
	for i := range n {
		e[i] = math.Exp(mu[i]/c - top)
	}
	sum := make([]float64, n) // S_q
	ties := make([]float64, n)
	for q := range n {
		for s := range n {
			if ranks[s] >= ranks[q] {
				sum[q] += e[s]
			}
			if ranks[s] == ranks[q] {
				ties[q]++
			}
		}
	}
	// 3. Ω_i and Δ_i, over the teams q ranked no worse than i.
	for i := range n {
		omega, delta := 0.0, 0.0
		for q := range n {
			if ranks[q] > ranks[i] {
				continue
			}
			piq := e[i] / sum[q]
			ind := 0.0
			if q == i {
				ind = 1
			}
			omega += (ind - piq) / ties[q]
			delta += piq * (1 - piq) / ties[q]
		}
		omega *= var2[i] / c
		sigmaI := math.Sqrt(var2[i])
		delta *= (sigmaI / c) * (var2[i] / (c * c))
		// 4. Each player's share of the team's change, by variance.
		for j := range out[i] {
			s2 := out[i][j].Sigma * out[i][j].Sigma
			share := s2 / var2[i]
			out[i][j].Mu += share * omega
			out[i][j].Sigma = math.Sqrt(s2 * math.Max(1-share*delta, p.Kappa))
		}
	}
	return out, nil
}

// Shown is the rating a person reads: round(60 μ) (1500 for a new player).
func Shown(r Rating) int { return int(math.Round(60 * r.Mu)) }

// Ordinal is the leaderboard's order: μ − 3σ, higher first.
func Ordinal(r Rating) float64 { return r.Mu - 3*r.Sigma }

// Ranks turns final scores into ranks, higher scores first: equal scores
// share a rank, and a rank is 1 + the number of teams ahead (scores 90,
// 40, 40, 10 rank 1, 2, 2, 4). winner, when not negative, is rank 1 alone
// whatever its score (the team that reached the target first).
func Ranks(scores []int, winner int) []int {
	ranks := make([]int, len(scores))
	for i := range scores {
		ahead := 0
		for k := range scores {
			if k == i {
				continue
			}
			switch {
			case k == winner:
				ahead++
			case i == winner:
			case scores[k] > scores[i]:
				ahead++
			}
		}
		ranks[i] = 1 + ahead
	}
	return ranks
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
