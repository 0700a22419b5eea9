package game

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"tessera/engine"
)

// lang is the language of a device's push texts (API.md: PUT /api/me/push
// may carry "lang": "it" | "en"; default en). The page's own words are in
// its catalogs; these are the few sentences the server writes.
type lang uint8

const (
	LangEN lang = iota
	LangIT
	numLangs
)

var langNames = [numLangs]string{LangEN: "en", LangIT: "it"}

// ParseLang reads a language's name.
func ParseLang(s string) (lang, bool) {
	for l, n := range langNames {
		if n == s {
			return lang(l), true
		}
	}
	return LangEN, false
}

// words are one language's push sentences.
type words struct {
	with, and         string
	rules             map[string]string // rule set titles, by variant name; missing: engine's Title
	yourTurn          string            // "Your turn — "
	timeRanOut        string
	computerPlays     string
	matchOver         string
	rematch           string
	startedRematch    string // "%s started the rematch."
	alsoYourTurn      string
	redealOrKeep      string
	played            string // "%s played %s"
	playedFor         string // " for %d"
	handDealt         string // "Hand %d is dealt."
	youNeed           string // "You need %d to reach %d."
	score             string // "Score: %d to %d."
	won               string // "%s won %s."
	wonOne            string // the same for one winner
	over              string
	yourMoveIn        string // "Your move in %s."
	left              string // "%s left"
	days, hours, mins string
	lessThanAMinute   string
	round, roundBody  string // "Round %d — %s", "Your game is ready."
	says              string // "%s: " before a message
	reactions         map[string]string
}

var catalog = [numLangs]words{
	LangEN: {
		with: " with ", and: " and ",
		yourTurn: "Your turn — ", timeRanOut: "Your time ran out — ",
		computerPlays: "The computer plays for you until you take your seat back.",
		matchOver:     "Match over — ", rematch: "Rematch — ",
		startedRematch: "%s started the rematch.", alsoYourTurn: " It is your turn.",
		redealOrKeep: "You were dealt four doubles or more: redeal or keep?",
		played:       "%s played %s", playedFor: " for %d", handDealt: "Hand %d is dealt.",
		youNeed: "You need %d to reach %d.", score: "Score: %d to %d.",
		won: "%s won %s.", wonOne: "%s won %s.", over: "The match is over.",
		yourMoveIn: "Your move in %s.", left: "%s left",
		days: " days", hours: " h", mins: " min", lessThanAMinute: "less than a minute",
		round: "Round %d — %s", roundBody: "Your game is ready.",
		says: "%s: ",
		reactions: map[string]string{"thumbs-up": "👍", "well-played": "Well played!", "good-game": "Good game!",
			"oops": "Oops!", "hurry": "Your move, please!", "thanks": "Thanks!"},
	},
	LangIT: {
		with: " con ", and: " e ",
		rules:    map[string]string{"partnership": "Domino a coppie", "block": "Domino bloccato"},
		yourTurn: "Tocca a te — ", timeRanOut: "Tempo scaduto — ",
		computerPlays: "Il computer gioca per te finché non riprendi il tuo posto.",
		matchOver:     "Partita finita — ", rematch: "Rivincita — ",
		startedRematch: "%s ha iniziato la rivincita.", alsoYourTurn: " Tocca a te.",
		redealOrKeep: "Hai quattro o più doppi: rifai la smazzata o tieni le tessere?",
		played:       "%s ha giocato %s", playedFor: " e fa %d", handDealt: "È stata distribuita la mano %d.",
		youNeed: "Ti mancano %d punti per arrivare a %d.", score: "Punteggio: %d a %d.",
		won: "%s hanno vinto %s.", wonOne: "%s ha vinto %s.", over: "La partita è finita.",
		yourMoveIn: "Tocca a te in %s.", left: "restano %s",
		days: " giorni", hours: " h", mins: " min", lessThanAMinute: "meno di un minuto",
		round: "Turno %d — %s", roundBody: "La tua partita è pronta.",
		says: "%s: ",
		reactions: map[string]string{"thumbs-up": "👍", "well-played": "Bella mossa!", "good-game": "Bella partita!",
			"oops": "Ops!", "hurry": "Tocca a te, dai!", "thanks": "Grazie!"},
	},
}

// fill replaces each %s or %d of format, in order, with args.
func fill(format string, args ...string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] == '%' && i+1 < len(format) && (format[i+1] == 's' || format[i+1] == 'd') && len(args) > 0 {
			b.WriteString(args[0])
			args = args[1:]
			i++
			continue
		}
		b.WriteByte(format[i])
	}
	return b.String()
}

// ruleTitle is the rule set's name in l.
func ruleTitle(v engine.Variant, l lang) string {
	if t, ok := catalog[l].rules[v.String()]; ok {
		return t
	}
	return v.Rules().Title
}

// inWords is "2 days", "5 h", "15 min" in l.
func inWords(d time.Duration, l lang) string {
	w := catalog[l]
	switch {
	case d >= 48*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + w.days
	case d >= 2*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + w.hours
	case d >= time.Minute:
		return strconv.Itoa(int(d/time.Minute)) + w.mins
	}
	return w.lessThanAMinute
}

// inEveryLang makes a message in every language: text gives the title and
// body in l.
func inEveryLang(game string, version int64, kind string, text func(l lang) (title, body string)) Message {
	m := Message{Game: game, Version: version, Kind: kind}
	for l := range numLangs {
		m.texts[l].Title, m.texts[l].Body = text(l)
	}
	return m.In(LangEN)
}

// pushText is a message's words in one language.
type pushText struct{ Title, Body string }

// In is m with its words in l.
func (m Message) In(l lang) Message {
	if t := m.texts[l]; t.Title != "" {
		m.Title, m.Body = t.Title, t.Body
	}
	return m
}

// RematchMessage tells seat s (its view v of the new game) that seat by
// started the rematch, and whether it is s's turn already.
func RematchMessage(id string, v *engine.View, s, by int, yours bool) Message {
	return inEveryLang(id, 1, "rematch", func(l lang) (string, string) {
		body := fill(catalog[l].startedRematch, seatName(v, by))
		if yours {
			body += catalog[l].alsoYourTurn
		}
		return catalog[l].rematch + TableName(v, s, l), body
	})
}

// RoundMessage is the push "round" of a tournament's round (number) of
// tournament name, for the seat's game id.
func RoundMessage(id string, number int, name string) Message {
	return inEveryLang(id, 1, "round", func(l lang) (string, string) {
		return fill(catalog[l].round, fmt.Sprint(number), name), catalog[l].roundBody
	})
}
