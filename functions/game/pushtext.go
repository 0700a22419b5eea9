package game

import (
	"strconv"
	"time"

	"tessera/engine"
	"tessera/frontend/words"
)

// lang is the language of a device's push texts (API.md: PUT /api/me/push
// may carry "lang": "it" | "en"; default en). The page's own words are in
// its catalogs; these are the few sentences the server writes.
type lang uint8

// Lang is lang for the packages that name one (the API's email routes).
type Lang = lang

const (
	LangEN lang = iota
	LangIT
	numLangs
)

var langNames = [numLangs]string{LangEN: "en", LangIT: "it"}

// String is the language's name.
func (l lang) String() string {
	if l < numLangs {
		return langNames[l]
	}
	return ""
}

// ParseLang reads a language's name.
func ParseLang(s string) (lang, bool) {
	for l, n := range langNames {
		if n == s {
			return lang(l), true
		}
	}
	return LangEN, false
}

// cat is each language's catalog: the page's own (frontend/words), the
// one source of every word a person reads. The push texts use its keys
// "sent.*" (what the server sends), the rule sets' titles ("variant.*"), the reactions
// ("chat.r.*") and a pair's join ("team.join").
var cat = func() (out [numLangs]*words.Catalog) {
	for l, n := range langNames {
		out[l] = words.MustLoad(n)
	}
	return out
}()

// say is key's text in l, with args as words.Catalog.T takes them.
func say(l lang, key string, args ...string) string { return cat[l].T(key, args...) }

// pushKeys lists every catalog key the push texts use (a test checks each
// is in every catalog).
var pushKeys = []string{"sent.turn", "sent.away", "sent.computerPlays", "sent.end", "sent.table", "sent.and",
	"sent.redealOrKeep", "sent.played", "sent.played.scored", "sent.handDealt", "sent.youNeed", "sent.score",
	"sent.over", "sent.won", "sent.won.one", "sent.reminder", "sent.yourMoveIn", "sent.days", "sent.hours",
	"sent.mins", "sent.lessThanAMinute", "sent.rematch", "sent.startedRematch", "sent.startedRematch.yourTurn",
	"sent.round", "sent.roundBody", "sent.says", "sent.leagueGame", "sent.leagueGameBody", "sent.moved", "team.join"}

// ruleTitle is the rule set's name in l.
func ruleTitle(v engine.Variant, l lang) string {
	if k := "variant." + v.String(); cat[l].Has(k) {
		return say(l, k)
	}
	return v.Rules().Title
}

// inWords is "2 days", "5 h", "15 min" in l.
func inWords(d time.Duration, l lang) string {
	switch {
	case d >= 48*time.Hour:
		return say(l, "sent.days", "n", strconv.Itoa(int(d/(24*time.Hour))))
	case d >= 2*time.Hour:
		return say(l, "sent.hours", "n", strconv.Itoa(int(d/time.Hour)))
	case d >= time.Minute:
		return say(l, "sent.mins", "n", strconv.Itoa(int(d/time.Minute)))
	}
	return say(l, "sent.lessThanAMinute")
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
		body := "sent.startedRematch"
		if yours {
			body = "sent.startedRematch.yourTurn"
		}
		return say(l, "sent.rematch", "table", TableName(v, s, l)), say(l, body, "name", seatName(v, by))
	})
}

// RoundMessage is the push "round" of a tournament's round (number) of
// tournament name, for the seat's game id.
func RoundMessage(id string, number int, name string) Message {
	return inEveryLang(id, 1, "round", func(l lang) (string, string) {
		return say(l, "sent.round", "n", strconv.Itoa(number), "name", name), say(l, "sent.roundBody")
	})
}

// LeagueGameMessage tells a member of league (its name) that by started
// game id of it with a free seat: an invitation (kind "league", an
// addition to API.md's kinds).
func LeagueGameMessage(id, league, by string) Message {
	return inEveryLang(id, 1, "league", func(l lang) (string, string) {
		return say(l, "sent.leagueGame", "league", league), say(l, "sent.leagueGameBody", "name", isolate(by))
	})
}
