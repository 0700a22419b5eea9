package game

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"tessera/functions/store"
)

// Chat (API.md "Chat", docs/chat.md): each game's table talk, for its
// seats. It is one store item beside the game (ChatItemID), JSON: the last
// MaxChatKept messages and, per seat, what its limits and retries need.
// Sending never changes the game's version: the game only notes the
// latest message's seq (a note: write.go; Stored.Chat), so a poll's view
// and ETag see new talk without reading the chat.
const (
	chatFormat = 1
	// MaxChatKept is how many messages a chat keeps and GET returns.
	MaxChatKept = 200
	// MaxChatText is a text's length in code points.
	MaxChatText = 280
	// ChatPerMinute and ChatPerGame bound what one seat sends.
	ChatPerMinute = 20
	ChatPerGame   = 500
	// ChatPushEvery is how often a seat's devices hear of a game's talk.
	ChatPushEvery = 10 * time.Minute
)

// Reactions are the reactions a message may be (API.md).
var Reactions = []string{"thumbs-up", "well-played", "good-game", "oops", "hurry", "thanks"}

// ChatItemID is the store item of game id's talk.
func ChatItemID(id string) string { return "chat-" + id }

// ChatMessage is one message as stored and answered.
type ChatMessage struct {
	Seq      int       `json:"seq"`
	Seat     int       `json:"seat"`
	Text     *string   `json:"text"`
	Reaction *string   `json:"reaction"`
	At       time.Time `json:"at"`
	// Deleted: its author was forgotten (an addition, docs/forgetting.md):
	// text and reaction are null.
	Deleted bool `json:"deleted,omitempty"`
}

// Chat is one game's talk as stored.
type Chat struct {
	Game     string        `json:"game"`
	Seq      int           `json:"seq"`
	Messages []ChatMessage `json:"messages"` // oldest first, the last MaxChatKept
	Seats    []ChatSeat    `json:"seats"`
}

// ChatSeat is what one seat's limits and retries need.
type ChatSeat struct {
	Sent   int       `json:"sent"`             // messages sent in this game
	Recent []int64   `json:"recent,omitempty"` // Unix seconds of its last ChatPerMinute messages
	IDs    []ChatID  `json:"ids,omitempty"`    // its last KeptMoveIDs messageIds
	Pushed time.Time `json:"pushed,omitzero"`  // when its devices last heard of this talk
}

// ChatID is a remembered messageId (its digest) and the message it sent.
type ChatID struct {
	Digest moveDigest `json:"d"`
	Seq    int        `json:"s"`
}

// ChatRequest is a message to send: text or reaction, checked by the API
// (Text trimmed), and an optional messageId.
type ChatRequest struct {
	Text, Reaction, MessageID string
}

func encodeChat(c *Chat) ([]byte, error) { return EncodeJSONItem(chatFormat, c) }

func decodeChat(b []byte) (*Chat, error) {
	return DecodeJSONItem(b, chatFormat, "chat", func(c *Chat) string { return c.Game })
}

// loadChat reads game id's talk: an empty one (version 0) when none.
func (h *Service) loadChat(ctx context.Context, id string, seats int) (*Chat, int64, error) {
	item, err := h.store.Load(ctx, ChatItemID(id))
	if errors.Is(err, store.ErrNotFound) {
		return &Chat{Game: id, Messages: []ChatMessage{}, Seats: make([]ChatSeat, seats)}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	c, err := decodeChat(item.State)
	if err != nil {
		return nil, 0, err
	}
	for len(c.Seats) < seats {
		c.Seats = append(c.Seats, ChatSeat{})
	}
	return c, item.Version, nil
}

// ReadChat is GET /api/games/{id}/chat for the seat token holds (else
// ErrUnauthorized): the messages after seq after, oldest first, less those
// of the seats whose players the reader's player muted (docs/blocking.md).
func (h *Service) ReadChat(ctx context.Context, id, token string, after int) ([]ChatMessage, error) {
	g, err := h.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	seat, err := seatOf(g, token)
	if err != nil {
		return nil, err
	}
	c, _, err := h.loadChat(ctx, id, len(g.State.Seats))
	if err != nil {
		return nil, err
	}
	muted, err := h.community.Muted(ctx, g.State.Seats[seat].Player)
	if err != nil {
		return nil, err
	}
	out := []ChatMessage{}
	for _, m := range c.Messages {
		if m.Seq > after && !(m.Seat < len(g.State.Seats) && muted[g.State.Seats[m.Seat].Player]) {
			out = append(out, m)
		}
	}
	return out, nil
}

// SendChat is POST /api/games/{id}/chat by the seat token holds (else
// ErrUnauthorized): the message and whether it was sent now (false: a
// retry of messageId, answered as sent).
func (h *Service) SendChat(ctx context.Context, host, id, token string, req ChatRequest) (ChatMessage, bool, error) {
	g, err := h.Load(ctx, id)
	if err != nil {
		return ChatMessage{}, false, err
	}
	seat, err := seatOf(g, token)
	if err != nil {
		return ChatMessage{}, false, err
	}
	if req.Text != "" && g.State.Open { // a tournament's games are never open
		return ChatMessage{}, false, fmt.Errorf("%w: open tables talk with reactions only", ErrNotEligible)
	}
	var (
		sent ChatMessage
		push []int
	)
	var retried *ChatMessage // a retry of messageId: answered as sent
	err = Retry(ctx, chatWrites, func(int) error {
		c, version, err := h.loadChat(ctx, id, len(g.State.Seats))
		if err != nil {
			return err
		}
		me := &c.Seats[seat]
		if req.MessageID != "" {
			d := digestMoveID(req.MessageID)
			if i := slices.IndexFunc(me.IDs, func(x ChatID) bool { return x.Digest == d }); i >= 0 {
				m := c.message(me.IDs[i].Seq, seat)
				retried = &m
				return nil
			}
		}
		now := h.now().UTC().Truncate(time.Second)
		if me.Sent >= ChatPerGame {
			return fmt.Errorf("%w: %d messages a game", ErrLimitReached, ChatPerGame)
		}
		if len(me.Recent) >= ChatPerMinute && now.Unix()-me.Recent[len(me.Recent)-ChatPerMinute] < 60 {
			return fmt.Errorf("%w: %d messages a minute; wait a moment", ErrLimitReached, ChatPerMinute)
		}
		c.Seq++
		sent = ChatMessage{Seq: c.Seq, Seat: seat, At: now}
		if req.Text != "" {
			sent.Text = &req.Text
		} else {
			sent.Reaction = &req.Reaction
		}
		c.Messages = append(c.Messages, sent)
		if len(c.Messages) > MaxChatKept {
			c.Messages = slices.Clone(c.Messages[len(c.Messages)-MaxChatKept:])
		}
		me.Sent++
		me.Recent = AppendCapped(me.Recent, now.Unix(), ChatPerMinute)
		if req.MessageID != "" {
			me.IDs = AppendCapped(me.IDs, ChatID{digestMoveID(req.MessageID), sent.Seq}, KeptMoveIDs)
		}
		push = push[:0]
		for s := range c.Seats {
			if s != seat && g.State.Seats[s].TokenHash != nil && now.Sub(c.Seats[s].Pushed) >= ChatPushEvery {
				c.Seats[s].Pushed = now
				push = append(push, s)
			}
		}
		b, err := encodeChat(c)
		if err != nil {
			return err
		}
		expires := gameExpiry(now)
		return store.CreateOrSave(ctx, h.store, ChatItemID(id), b, version, now, time.Time{}, expires)
	})
	if err != nil {
		return ChatMessage{}, false, err
	}
	if retried != nil {
		return *retried, false, nil
	}
	if err := h.noteChat(ctx, id, g, sent.Seq); err != nil {
		// The message is kept; the view learns of it with the next one.
		h.log.Warn("chat: the game's seq not noted", "gameId", id, "cause", LogCause(err))
	}
	if push = h.notMuting(ctx, g, seat, push); len(push) > 0 {
		h.pushChat(ctx, host, id, g, seat, sent, push)
	}
	return sent, true, nil
}

// ChatMessage is message seq of game id's talk, if it is still kept.
func (h *Service) ChatMessage(ctx context.Context, id string, seq int) (ChatMessage, bool, error) {
	c, _, err := h.loadChat(ctx, id, 0)
	if err != nil {
		return ChatMessage{}, false, err
	}
	for _, m := range c.Messages {
		if m.Seq == seq {
			return m, true, nil
		}
	}
	return ChatMessage{}, false, nil
}

// notMuting is seats less those whose players muted the player at seat
// from: they are not pushed its talk. A profile that cannot be read keeps
// its seat (a push more, never a message lost).
func (h *Service) notMuting(ctx context.Context, g *Loaded, from int, seats []int) []int {
	sender := g.State.Seats[from].Player
	if sender == "" {
		return seats
	}
	out := seats[:0:0]
	for _, s := range seats {
		if muted, err := h.community.Muted(ctx, g.State.Seats[s].Player); err == nil && muted[sender] {
			continue
		}
		out = append(out, s)
	}
	return out
}

// message is the message seq of c (a retry's answer); one no longer kept
// is answered by its seq and seat alone.
func (c *Chat) message(seq, seat int) ChatMessage {
	for _, m := range c.Messages {
		if m.Seq == seq {
			return m
		}
	}
	return ChatMessage{Seq: seq, Seat: seat}
}

// noteChat raises the game's chat seq to seq (a note: the game's
// version stays).
func (h *Service) noteChat(ctx context.Context, id string, g *Loaded, seq int) error {
	_, err := h.note(ctx, id, g, func(g *Loaded) error {
		if g.State.Chat >= seq {
			return ErrUnchanged
		}
		g.State.Chat = seq
		return nil
	})
	return err
}

// pushChat tells seats of the message (kind chat): what the seat's view
// may know (the table talk is every seat's).
func (h *Service) pushChat(ctx context.Context, host, id string, g *Loaded, from int, msg ChatMessage, seats []int) {
	if h.push == nil {
		return
	}
	m, err := g.Replay()
	if err != nil {
		return
	}
	msgs := map[int]Message{}
	for _, s := range seats {
		v := m.View(s)
		msgs[s] = inEveryLang(id, g.Version(), "chat", func(l lang) (string, string) {
			body := ""
			if msg.Text != nil {
				body = *msg.Text
			} else {
				body = say(l, "chat.r."+*msg.Reaction)
			}
			return TableName(v, s, l), say(l, "sent.says", "name", seatName(v, from), "text", body)
		})
	}
	h.Send(ctx, host, id, g.Version(), g.State, msgs)
}
