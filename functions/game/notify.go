package game

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"tessera/engine"
	"tessera/functions/push"
	"tessera/functions/store"
)

// PushBudget bounds what a request spends on pushes after its change is
// saved: reading the recipients' devices, sending, forgetting the gone
// ones (API.md: a push service never delays an answer by more than 1 s).
const PushBudget = 900 * time.Millisecond

// Before is what a change is compared with to find who must hear of it.
type Before struct {
	ToAct  uint8 // a bit per seat that had to act
	Away   uint8 // a bit per seat that was away
	LogLen int
	Status engine.Status
}

func Snapshot(m *engine.Match) Before {
	b := Before{LogLen: len(m.Log()), Status: m.Status()}
	for _, s := range m.ToAct() {
		b.ToAct |= 1 << s
	}
	for s := range m.Options().Players {
		if m.Seat(s).Away {
			b.Away |= 1 << s
		}
	}
	return b
}

// Message is one push: API.md's payload, in English; texts holds its
// words in every language (a device gets its own: pushtext.go).
type Message struct {
	Game    string `json:"game"`
	Version int64  `json:"version"`
	Kind    string `json:"kind"`
	Title   string `json:"title"`
	Body    string `json:"body"`
	// View and ETag: to a watching page (watch.go), the seat's new view
	// (gzipped, base64) and the ETag a GET would answer with it.
	View  string `json:"view,omitempty"`
	ETag  string `json:"etag,omitempty"`
	texts [numLangs]pushText
}

// Messages lists, by seat, what the change from b to m tells each person:
// "turn" to a seat that must act now and did not before (or was dealt
// again), "end" to everyone when the match ended; nothing to the seat of
// cause (the caller's token hash) or to a computer seat.
func Messages(id string, version int64, m *engine.Match, st *Stored, b Before, cause []byte) map[int]Message {
	out := map[int]Message{}
	dealt := false
	for _, e := range m.Log()[b.LogLen:] {
		dealt = dealt || e.Type == engine.EventDeal
	}
	ended := m.Status() == engine.StatusFinished && b.Status != engine.StatusFinished
	timedOut := map[int]bool{}
	for _, e := range m.Log()[b.LogLen:] {
		if e.Type == engine.EventAway && e.Timeout {
			timedOut[e.Seat] = true
		}
	}
	for s, a := range st.Seats {
		if a.TokenHash == nil || bytes.Equal(a.TokenHash, cause) {
			continue
		}
		v := m.View(s)
		switch {
		case timedOut[s] && !ended:
			out[s] = inEveryLang(id, version, "away", func(l lang) (string, string) {
				return say(l, "sent.away", "table", TableName(v, s, l)), say(l, "sent.computerPlays")
			})
		case ended:
			out[s] = inEveryLang(id, version, "end", func(l lang) (string, string) {
				return say(l, "sent.end", "table", TableName(v, s, l)), endText(v, l)
			})
		case (v.You.Confirm || v.Hand != nil && v.Hand.Turn != nil && *v.Hand.Turn == s) && (b.ToAct&(1<<s) == 0 || dealt):
			since := m.Log()[b.LogLen:]
			out[s] = inEveryLang(id, version, "turn", func(l lang) (string, string) {
				return say(l, "sent.turn", "table", TableName(v, s, l)), turnText(v, s, since, l)
			})
		}
	}
	return out
}

// seatName is seat s's name in v ("" for a free seat), bidi-isolated when
// it holds right-to-left letters, as the page does (isolate in mygames.js).
func seatName(v *engine.View, s int) string {
	if n := v.Seats[s].Name; n != nil {
		return isolate(*n)
	}
	return ""
}

// isolate wraps a name with right-to-left letters in FIRST STRONG ISOLATE
// ... POP DIRECTIONAL ISOLATE, so that in a notification's sentence it
// cannot reorder the words around it; other names stay as they are.
func isolate(name string) string {
	for _, r := range name {
		if unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko) {
			return "\u2068" + name + "\u2069"
		}
	}
	return name
}

// TableName is "Five Up with Bea and Carlo", as seat s sees the table, in
// l (the rule set alone at a table of nobody else yet).
func TableName(v *engine.View, s int, l lang) string {
	var others []string
	for i := range v.Seats {
		if i != s && seatName(v, i) != "" {
			others = append(others, seatName(v, i))
		}
	}
	if len(others) == 0 {
		return ruleTitle(v.Variant, l)
	}
	return say(l, "sent.table", "game", ruleTitle(v.Variant, l), "names", andList(others, l))
}

// andList is "Ana, Bea and Carlo" in l.
func andList(xs []string, l lang) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return say(l, "sent.and", "a", strings.Join(xs[:len(xs)-1], ", "), "b", xs[len(xs)-1])
}

// turnText says what happened since, and what the seat needs, in l: two
// sentences of the catalog.
func turnText(v *engine.View, s int, since []engine.Event, l lang) string {
	if v.You.Confirm {
		return say(l, "sent.redealOrKeep")
	}
	var text string
	for _, e := range since {
		if e.Type == engine.EventPlay && e.Seat != s {
			text = say(l, "sent.played", "name", seatName(v, e.Seat), "tile", e.Tile.String())
			if e.Points > 0 {
				text = say(l, "sent.played.scored", "name", seatName(v, e.Seat), "tile", e.Tile.String(), "n", strconv.Itoa(e.Points))
			}
		}
	}
	if text == "" && v.Hand != nil {
		text = say(l, "sent.handDealt", "n", strconv.Itoa(v.Hand.Number))
	}
	// Where the ends count, or more than two teams play, what the seat
	// needs; two teams scoring at hand ends: the score.
	team := v.You.Team
	if v.Variant.Rules().Counts || len(v.Scores) != 2 {
		return text + " " + say(l, "sent.youNeed", "n", strconv.Itoa(v.Options.Target-v.Scores[team]), "target", strconv.Itoa(v.Options.Target))
	}
	return text + " " + say(l, "sent.score", "us", strconv.Itoa(v.Scores[team]), "them", strconv.Itoa(v.Scores[1-team]))
}

// endText is "Ana & Carlo won 252–180.", in l.
func endText(v *engine.View, l lang) string {
	if v.Winner == nil {
		return say(l, "sent.over")
	}
	w := *v.Winner
	var names []string
	best := 0
	for i, st := range v.Seats {
		if st.Team == w {
			names = append(names, seatName(v, i))
		} else {
			best = max(best, v.Scores[st.Team])
		}
	}
	key := "sent.won"
	if len(names) == 1 {
		key = "sent.won.one"
	}
	score := strconv.Itoa(v.Scores[w]) + "–" + strconv.Itoa(best)
	return say(l, key, "names", strings.Join(names, say(l, "team.join")), "score", score)
}

// Send delivers msgs, by seat, to the devices of each seat's key.
func (h *Service) Send(ctx context.Context, host, id string, version int64, st *Stored, msgs map[int]Message) {
	h.SendTo(ctx, host, id, version, deliveries(st, msgs))
}

// deliveries are msgs, by seat of st, as pushes to the seats' keys.
func deliveries(st *Stored, msgs map[int]Message) []Delivery {
	to := make([]Delivery, 0, len(msgs))
	for seat, msg := range msgs {
		to = append(to, Delivery{Key: st.Seats[seat].TokenHash, Seat: seat, Msg: msg})
	}
	return to
}

// Delivery is one push: its message to the devices of the key whose hash
// is Key (Seat, for the log: the key's seat in the game, -1 none).
type Delivery struct {
	Key  []byte
	Seat int
	Msg  Message // none when Kind is "" (only watching devices hear)
	// Watching devices (deviceDigest) get Watch in place of Msg.
	Watching map[string]bool
	Watch    *Message
}

// SendTo delivers pushes of game id to keys' devices, within PushBudget
// (beside a sweep: never holding its next game).
func (h *Service) SendTo(ctx context.Context, host, id string, version int64, to []Delivery) {
	h.sendWith(ctx, host, id, version, to, nil)
}

// sendWith is SendTo with the records the caller has read already (by
// PlayerID; nil none): only the others are read for the devices.
func (h *Service) sendWith(ctx context.Context, host, id string, version int64, to []Delivery, records map[string]store.Item) {
	if h.push == nil || len(to) == 0 {
		return
	}
	if q, ok := ctx.Value(sendQueueKey{}).(*pool); ok {
		// A sweep: the pushes go out beside it, never holding the next
		// game's timeout (attack kit D1); the sweep waits for them last.
		q.run(func() { h.sendNow(context.WithoutCancel(ctx), host, id, version, to, records) })
		return
	}
	h.sendNow(ctx, host, id, version, to, records)
}

// pool runs functions in goroutines, at most cap(slots) at once: a
// sweep's pushes (each within PushBudget) and its games.
type pool struct {
	wg    sync.WaitGroup
	slots chan struct{}
}

func newPool(size int) *pool { return &pool{slots: make(chan struct{}, size)} }

// run starts f once a slot is free.
func (p *pool) run(f func()) {
	p.wg.Add(1)
	p.slots <- struct{}{}
	go func() {
		defer func() { <-p.slots; p.wg.Done() }()
		f()
	}()
}

// wait returns once every function run has returned.
func (p *pool) wait() { p.wg.Wait() }

// sendQueueKey holds a sweep's pool for its pushes in its context.
type sendQueueKey struct{}

// sweepSends is how many games' pushes a sweep sends at once.
const sweepSends = 32

// sendNow delivers to within pushBudget.
func (h *Service) sendNow(ctx context.Context, host, id string, version int64, to []Delivery, records map[string]store.Item) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), PushBudget)
	defer cancel()
	keys, err := h.VAPID(ctx)
	if err != nil {
		h.log.Warn("push: no VAPID keys", "gameId", id, "cause", err.Error())
		return
	}
	ids := make([]string, 0, len(to))
	for _, d := range to {
		if _, read := records[PlayerID(d.Key)]; d.Key != nil && !read && !slices.Contains(ids, PlayerID(d.Key)) {
			ids = append(ids, PlayerID(d.Key))
		}
	}
	items := maps.Clone(records)
	if len(ids) > 0 {
		more, err := h.store.LoadMany(ctx, ids)
		if err != nil {
			h.log.Warn("push: devices not read", "gameId", id, "cause", err.Error())
			return
		}
		if items == nil {
			items = more
		} else {
			maps.Copy(items, more)
		}
	}
	type gone struct {
		hash     []byte
		Endpoint string
	}
	var (
		mu      sync.Mutex
		expired []gone
		took    [][]byte // keys whose digest is on that a device took a notification for
		wg      sync.WaitGroup
		sent    int
	)
	sender := *h.sender
	sender.Keys = keys
	if sender.Subject == "" {
		if sender.Subject = h.siteOrigin(ctx); sender.Subject == "" {
			sender.Subject = "https://" + host
		}
	}
	for _, dv := range to {
		hash, s, msg := dv.Key, dv.Seat, dv.Msg
		item, ok := items[PlayerID(hash)]
		if hash == nil || !ok {
			continue
		}
		p, err := DecodePlayer(item.State)
		if err != nil {
			h.log.Warn("push: a player record does not decode", "gameId", id, "cause", err.Error())
			continue
		}
		// On vacation: no push but the end (API.md "Vacation"); a page
		// that shows the game still hears of its moves (it notifies nothing).
		quiet := p.Vac.Active(h.now()) && msg.Kind != "end"
		watch := dv.Watch
		if watch != nil && quiet && watch.Kind != "end" && watch.Kind != "move" {
			w := *watch
			w.Kind = "move" // a view for the page, never a notification
			watch = &w
		}
		var payloads, watchPayloads [numLangs][]byte
		for l := range numLangs {
			if msg.Kind != "" { // none: only its watching devices hear
				payloads[l], _ = json.Marshal(msg.In(l))
			}
			if watch != nil {
				watchPayloads[l], _ = json.Marshal(watch.In(l))
			}
		}
		for _, d := range p.Devices {
			payload := payloads[d.Lang]
			if dv.Watching[deviceDigest(d.Endpoint)] && watch != nil {
				payload = watchPayloads[d.Lang]
			} else if msg.Kind == "" || quiet {
				continue
			}
			wg.Add(1)
			sent++
			go func() {
				defer wg.Done()
				err := sender.Send(ctx, d.subscription(), payload)
				if err == nil && p.Mail.On() && msg.Kind != "" && !quiet {
					mu.Lock()
					if !slices.ContainsFunc(took, func(k []byte) bool { return bytes.Equal(k, hash) }) {
						took = append(took, hash)
					}
					mu.Unlock()
				}
				if errors.Is(err, push.ErrGone) {
					mu.Lock()
					expired = append(expired, gone{hash, d.Endpoint})
					mu.Unlock()
				} else if err != nil {
					// The endpoint is the device's secret: not logged.
					h.log.Warn("push: not delivered", "gameId", id, "seat", s, "kind", msg.Kind, "cause", pushCause(err))
				}
			}()
		}
	}
	wg.Wait()
	h.notePushes(ctx, took)
	for _, g := range expired {
		if err := h.UpdatePlayer(ctx, g.hash, func(p *Record) bool { return p.DropDevice(g.Endpoint) }); err != nil {
			h.log.Warn("push: a gone device not forgotten", "gameId", id, "cause", err.Error())
		}
	}
	if sent > 0 {
		h.log.Info("push: sent", "gameId", id, "version", version, "devices", sent, "gone", len(expired))
	}
}

// pushCause describes a failed send without the endpoint's URL.
func pushCause(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	case errors.Is(err, push.ErrEndpoint):
		return "endpoint refused"
	}
	s := err.Error()
	if i := strings.Index(s, "push service answered"); i >= 0 {
		return s[i:]
	}
	return fmt.Sprintf("%T", errors.Unwrap(err))
}
