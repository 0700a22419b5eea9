package frontend

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"tessera/engine"
	"tessera/engine/bot"
	"tessera/functions/community"
	"tessera/functions/game"
)

var update = flag.Bool("update", false, "rewrite static/assets/config.js")

// variantFacts is what the start page needs to know of a rule set. Every
// fact is asked of engine.Options.Validate, so the page never restates a
// rule: the players it may have, for each player count the pairs values it
// allows, the redeal values it allows, and its defaults.
type variantFacts struct {
	Title          string            `json:"title"`
	Counts         bool              `json:"counts"`
	Players        []int             `json:"players"`
	DefaultPlayers int               `json:"defaultPlayers"`
	Pairs          map[string][]bool `json:"pairs"`
	Redeal         []bool            `json:"redeal"`
	DefaultRedeal  bool              `json:"defaultRedeal"`
	Target         int               `json:"target"`
	Rated          bool              `json:"rated"` // it has a rating pool (API.md "Ratings")
}

func factsOf(v engine.Variant) variantFacts {
	d := engine.DefaultOptions(v)
	r := v.Rules()
	f := variantFacts{Title: r.Title, Counts: r.Counts, DefaultPlayers: d.Players, DefaultRedeal: d.Redeal, Target: d.Target, Pairs: map[string][]bool{}, Rated: r.Pool != nil}
	valid := func(change func(*engine.Options)) bool {
		o := d
		change(&o)
		return o.Validate() == nil
	}
	for n := 1; n <= 8; n++ {
		var pairs []bool
		for _, p := range []bool{false, true} {
			if valid(func(o *engine.Options) { o.Players, o.Pairs = n, p }) {
				pairs = append(pairs, p)
			}
		}
		if len(pairs) > 0 {
			f.Players = append(f.Players, n)
			f.Pairs[fmt.Sprint(n)] = pairs
		}
	}
	for _, r := range []bool{false, true} {
		if valid(func(o *engine.Options) { o.Redeal = r }) {
			f.Redeal = append(f.Redeal, r)
		}
	}
	return f
}

// configJS is static/assets/config.js as the engine and the bots make it.
func configJS(t *testing.T) []byte {
	t.Helper()
	facts := map[string]variantFacts{}
	var names []string
	for _, r := range engine.RuleSets() {
		facts[r.Name] = factsOf(r.Variant)
		names = append(names, r.Name)
	}
	lo, hi := 0, 0
	for n := -5; n <= engine.MaxTarget+5; n++ {
		o := engine.DefaultOptions(engine.FiveUp)
		o.Target = n
		if o.Validate() == nil {
			if lo == 0 {
				lo = n
			}
			hi = n
		}
	}
	j := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var b bytes.Buffer
	b.WriteString("// config.js: the server's facts the start page offers, made from the\n" +
		"// engine's rules and the computer players it has (frontend/config_test.go;\n" +
		"// `go test ./frontend -run TestConfigIsCurrent -update` rewrites it). Do not edit.\n\n")
	fmt.Fprintf(&b, "/** LEVELS: the computer players' levels, weakest first. */\nexport const LEVELS = %s;\n\n", j(bot.LevelNames()))
	fmt.Fprintf(&b, "/** TARGET: the targets a match may be played to. */\nexport const TARGET = %s;\n\n", j(map[string]int{"min": lo, "max": hi}))
	fmt.Fprintf(&b, "/** ORDER: the rule sets, as the start page offers them. */\nexport const ORDER = %s;\n\n", j(names))
	fmt.Fprintf(&b, "/**\n * VARIANTS: per rule set, its title, whether its ends count, the player\n"+
		" * counts, the pairs values allowed for each count, the redeal values\n"+
		" * allowed, the defaults, and whether it may be rated.\n */\nexport const VARIANTS = %s;\n", j(facts))
	var pools []string
	for _, p := range engine.Pools() { // the registry's, in API.md's order
		pools = append(pools, p.Name)
	}
	fmt.Fprintf(&b, "\n/** POOLS: the rating pools (API.md \"Ratings\"), as the room lists their leaderboards. */\nexport const POOLS = %s;\n", j(pools))
	fmt.Fprintf(&b, "\n/** MIN_FINISHED: the matches a key must have finished to play at a rated table. */\nexport const MIN_FINISHED = %d;\n", community.MinFinished)
	fmt.Fprintf(&b, "\n/** TROPHIES: every trophy, in API.md's order (the registry: game.Trophies). */\nexport const TROPHIES = %s;\n", j(game.TrophyIDs))
	fmt.Fprintf(&b, "\n/** FORMATS: the tournament formats, as the room offers them (the registry: community.Formats). */\nexport const FORMATS = %s;\n", j(community.FormatNames))
	return b.Bytes()
}

// ruleFacts is what the game page needs of a rule set: its title, which
// way the table turns, and whether pairs is a choice (so "in pairs" says
// something).
type ruleFacts struct {
	Title     string `json:"title"`
	Clockwise bool   `json:"clockwise"`
	Pairs     bool   `json:"pairs"`
}

// rulesJS is static/assets/rules.js: the game page's few facts, apart from
// config.js to keep the game page small.
func rulesJS(t *testing.T) []byte {
	t.Helper()
	facts := map[string]ruleFacts{}
	for _, r := range engine.RuleSets() {
		f := factsOf(r.Variant)
		facts[r.Name] = ruleFacts{Title: r.Title, Clockwise: r.Clockwise, Pairs: len(f.Pairs["4"]) > 1}
	}
	b, err := json.Marshal(facts)
	if err != nil {
		t.Fatal(err)
	}
	return []byte("// Made by frontend/config_test.go (-update). Do not edit.\nimport { t, has } from './i18n.js';\n\n" +
		"export const RULES = " + string(b) + ";\n" +
		"/** ruleTitle: a rule set's name in the page's language (the catalog's variant.<name>; the engine's title without one). */\n" +
		"export const ruleTitle = (v) => (has('variant.' + v) ? t('variant.' + v) : (RULES[v] || {}).title || v);\n")
}

func TestConfigIsCurrent(t *testing.T) {
	checkCurrent(t, "static/assets/config.js", configJS(t))
	checkCurrent(t, "static/assets/rules.js", rulesJS(t))
}

// checkCurrent fails while the file at path is not want (-update writes it).
func checkCurrent(t *testing.T, path string, want []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go test ./frontend -run TestConfigIsCurrent -update\n got %s\nwant %s", path, got, want)
	}
}
