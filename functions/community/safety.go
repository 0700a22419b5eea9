package community

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"tessera/engine"
	"tessera/functions/game"
	"tessera/functions/store"
)

// Mute and block (issue 36, docs/blocking.md): a player's own lists in
// its profile. Muting hides a player's talk and reactions from the muter
// alone; blocking keeps the two apart in the open room (a lobby without
// the blocked player's tables, a seat refused with 409) and in a Swiss
// tournament's pairings where the pairing can avoid it.

// MaxListed bounds each list (muted, blocked).
const MaxListed = 200

// PlayerRef names a player in a list as shown: its id and its name now
// (ForgottenName for a player forgotten since).
type PlayerRef struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	gone   bool   // no profile names it (forgotten): Name is ForgottenName
}

// ForgottenName stands for a forgotten person's name (forget.go).
const ForgottenName = game.ForgottenName

// refs names the players pids, in order (one LoadMany per 100).
func (h *Service) refs(ctx context.Context, pids []string) ([]PlayerRef, error) {
	ids := make([]string, len(pids))
	for i, pid := range pids {
		ids[i] = ProfileItemID(pid)
	}
	items, err := store.LoadAll(ctx, h.store, ids)
	if err != nil {
		return nil, err
	}
	out := make([]PlayerRef, len(pids))
	for i, pid := range pids {
		out[i] = PlayerRef{Player: pid, Name: ForgottenName, gone: true}
		if it, ok := items[ids[i]]; ok {
			if p, err := DecodeProfile(it.State); err == nil {
				out[i].Name, out[i].gone = p.Name, false
			}
		}
	}
	return out, nil
}

// Lists of a profile.
const (
	ListMuted   = "mutes"
	ListBlocked = "blocks"
)

func (p *Profile) list(kind string) *[]string {
	if kind == ListMuted {
		return &p.Muted
	}
	return &p.Blocked
}

// SetListed puts player in (on) or takes it out of the list kind of the
// key whose hash is hash: PUT and DELETE /api/me/mutes/{player} and
// /api/me/blocks/{player}. Yourself is engine.ErrBadInput, a player with
// no profile store.ErrNotFound, a key without a profile
// game.ErrNotEligible, a full list game.ErrLimitReached; listing twice or
// taking out what is not listed changes nothing.
func (h *Service) SetListed(ctx context.Context, hash []byte, kind, player string, on bool) (*Private, error) {
	rec, me, err := h.keyProfile(ctx, hash)
	if err != nil {
		return nil, err
	}
	if player == me.ID {
		return nil, fmt.Errorf("%w: you cannot mute or block yourself", engine.ErrBadInput)
	}
	if on {
		if _, _, err := h.LoadProfile(ctx, player); err != nil {
			return nil, err
		}
	}
	var refused error
	p, _, err := h.UpdateProfile(ctx, me.ID, func(p *Profile) bool {
		refused = nil
		l := p.list(kind)
		i := slices.Index(*l, player)
		switch {
		case on && i >= 0, !on && i < 0:
			return false
		case on:
			if len(*l) >= MaxListed {
				refused = fmt.Errorf("%w: at most %d players in a list", game.ErrLimitReached, MaxListed)
				return false
			}
			*l = append(*l, player)
		default:
			*l = slices.Delete(*l, i, i+1)
		}
		return true
	})
	if err != nil || refused != nil {
		return nil, errors.Join(err, refused)
	}
	return h.PrivateOf(ctx, p, rec.Vac)
}

// Muted is the set of players the profile of player pid has muted (empty
// for none, or no profile): game.Community, for the table talk.
func (h *Service) Muted(ctx context.Context, pid string) (map[string]bool, error) {
	out := map[string]bool{}
	p, err := h.profileOrNil(ctx, pid)
	if err != nil || p == nil {
		return out, err
	}
	for _, m := range p.Muted {
		out[m] = true
	}
	return out, nil
}

// blocks reads the profiles of pids (at most store.MaxLoadMany) and
// reports whether two of them are kept apart: either blocked the other.
func (h *Service) blocks(ctx context.Context, pids []string) (func(a, b string) bool, error) {
	apart, _, err := h.among(ctx, pids)
	return apart, err
}

// among reads the profiles of pids and reports whether two of them are
// kept apart (either blocked the other) and whether one is suspended.
func (h *Service) among(ctx context.Context, pids []string) (apart func(a, b string) bool, suspended func(pid string) bool, err error) {
	ids := make([]string, 0, len(pids))
	for _, pid := range pids {
		if pid != "" && !slices.Contains(ids, ProfileItemID(pid)) {
			ids = append(ids, ProfileItemID(pid))
		}
	}
	items, err := store.LoadAll(ctx, h.store, ids)
	if err != nil {
		return nil, nil, err
	}
	kept, off := map[[2]string]bool{}, map[string]bool{}
	for _, it := range items {
		p, err := DecodeProfile(it.State)
		if errors.Is(err, store.ErrNotFound) {
			continue // forgotten: blocks and is blocked by nobody
		}
		if err != nil {
			return nil, nil, err
		}
		for _, b := range p.Blocked {
			kept[[2]string{p.ID, b}], kept[[2]string{b, p.ID}] = true, true
		}
		if p.Suspended != nil {
			off[p.ID] = true
		}
	}
	return func(a, b string) bool { return kept[[2]string{a, b}] }, func(pid string) bool { return off[pid] }, nil
}

// admitBlocked refuses a seat in an open game to the player of profile me
// (nil: a key without a profile yet) when it and a player seated there are
// kept apart (either blocked the other), or when a player seated there is
// suspended (its table left waiting in the lobby: docs/moderation.md).
func (h *Service) admitBlocked(ctx context.Context, me *Profile, st *game.Stored) error {
	var pids []string // me first (when it has a profile), then the others seated
	mine := ""
	if me != nil {
		mine = me.ID
		pids = append(pids, mine)
	}
	for _, a := range st.Seats {
		if a.Player != "" && a.Player != mine {
			pids = append(pids, a.Player)
		}
	}
	others := pids
	if me != nil {
		others = pids[1:]
	}
	if len(others) == 0 {
		return nil
	}
	apart, suspended, err := h.among(ctx, pids)
	if err != nil {
		return err
	}
	for _, pid := range others {
		if me != nil && apart(mine, pid) {
			return fmt.Errorf("%w: you cannot sit at this table: a block is between you and a player here", game.ErrNotEligible)
		}
		if suspended(pid) {
			return fmt.Errorf("%w: you cannot sit at this table: it is no longer open to the room", game.ErrNotEligible)
		}
	}
	return nil
}

// blockedOf is the set of players the key whose hash is hash blocked
// (empty without a key or a profile): what its lobby leaves out.
func (h *Service) blockedOf(ctx context.Context, hash []byte) (map[string]bool, error) {
	out := map[string]bool{}
	if hash == nil {
		return out, nil
	}
	p, err := h.MyProfile(ctx, hash)
	if err != nil || p == nil {
		return out, err
	}
	for _, b := range p.Blocked {
		out[b] = true
	}
	return out, nil
}
