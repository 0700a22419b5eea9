//go:build js && wasm

package d1

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"tessera/functions/jsutil"
	"tessera/functions/store"
)

// Store is a store.Store in the games table of one D1 database.
type Store struct {
	db js.Value // the D1Database binding
}

var _ store.Store = (*Store)(nil)

// New uses db, a Worker's D1Database binding (env.DB).
func New(db js.Value) *Store { return &Store{db: db} }

// maxSafe is the largest integer a JS number holds exactly.
const maxSafe = 1<<53 - 1

// columns are read from games joined with entries (an item's entry, if
// any: docs/lists.md).
const (
	columns = "version, hex(state) AS state, updated_s, updated_ns, due, expires_at, list, rank, hex(card) AS card"
	joined  = "games LEFT JOIN entries USING (id)"
)

// Create inserts the row at version 1 unless the id is taken.
func (s *Store) Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error {
	return s.CreateListed(ctx, id, state, now, due, expires, store.Entry{})
}

// CreateListed is Create with the item's entry, in one batch (a D1 batch
// is one transaction).
func (s *Store) CreateListed(ctx context.Context, id string, state []byte, now, due, expires time.Time, e store.Entry) error {
	if err := store.CheckCall(ctx, "create", id); err != nil {
		return err
	}
	if err := store.CheckEntry(id, e); err != nil {
		return err
	}
	now = store.NormalizeTime(now)
	stmts := []stmt{{"INSERT INTO games (id, version, state, updated_s, updated_ns, due, expires_at) VALUES (?, 1, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
		[]any{id, bytes(state), now.Unix(), now.Nanosecond(), dueValue(due), expiresValue(expires)}}}
	if e.List != "" {
		stmts = append(stmts, entryStmt(id, 1, now, state, e))
	}
	rs, err := s.batch(ctx, "create", id, stmts)
	if err != nil {
		return err
	}
	if changes(rs[0]) == 0 {
		return fmt.Errorf("create %q: %w", id, store.ErrExists)
	}
	return nil
}

// Load reads the row. D1 reads are consistent with the writes before them
// on the same database (one primary), so a Load after a Save sees it.
func (s *Store) Load(ctx context.Context, id string) (store.Item, error) {
	if err := store.CheckCall(ctx, "load", id); err != nil {
		return store.Item{}, err
	}
	row, err := s.run(ctx, "load", id, "first", "SELECT "+columns+" FROM "+joined+" WHERE id = ?", id)
	if err != nil {
		return store.Item{}, err
	}
	if row.IsNull() || row.IsUndefined() {
		return store.Item{}, fmt.Errorf("load %q: %w", id, store.ErrNotFound)
	}
	return item(id, row)
}

// Save replaces the row on condition that its version is expected.
func (s *Store) Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error {
	if err := store.CheckCall(ctx, "save", id); err != nil {
		return err
	}
	if expected < 0 || expected >= maxSafe {
		return fmt.Errorf("save %q at version %d: %w", id, expected, store.ErrConflict)
	}
	return s.SaveListed(ctx, id, state, expected, now, due, expires, store.Entry{})
}

// SaveListed is Save with the item's entry, in one batch: the entry's
// statement applies only where the game's update did (the row holds the
// version and time this call wrote).
func (s *Store) SaveListed(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time, e store.Entry) error {
	if err := store.CheckCall(ctx, "save", id); err != nil {
		return err
	}
	if err := store.CheckEntry(id, e); err != nil {
		return err
	}
	if expected < 0 || expected >= maxSafe {
		return fmt.Errorf("save %q at version %d: %w", id, expected, store.ErrConflict)
	}
	now = store.NormalizeTime(now)
	rs, err := s.batch(ctx, "save", id, []stmt{{
		"UPDATE games SET version = version + 1, state = ?, updated_s = ?, updated_ns = ?, due = ?, expires_at = ? WHERE id = ? AND version = ?",
		[]any{bytes(state), now.Unix(), now.Nanosecond(), dueValue(due), expiresValue(expires), id, expected}},
		entryStmt(id, expected+1, now, state, e)})
	if err != nil {
		return err
	}
	return s.refused(ctx, "save", id, expected, changes(rs[0]))
}

// stmt is one statement of a batch.
type stmt struct {
	sql  string
	args []any
}

// written is the condition that the games row id holds what the write at
// version and now put there (a refused write leaves another row).
const written = "EXISTS (SELECT 1 FROM games WHERE id = ? AND version = ? AND updated_s = ? AND updated_ns = ? AND state = ?)"

// entryStmt sets id's entry to e (deletes it when e is zero) if the row
// holds the write of state at version and now.
func entryStmt(id string, version int64, now time.Time, state []byte, e store.Entry) stmt {
	cond := []any{id, version, now.Unix(), now.Nanosecond(), bytes(state)}
	if e.List == "" {
		return stmt{"DELETE FROM entries WHERE id = ? AND " + written, append([]any{id}, cond...)}
	}
	return stmt{"INSERT INTO entries (id, list, rank, card) SELECT ?, ?, ?, ? WHERE " + written +
		" ON CONFLICT (id) DO UPDATE SET list = excluded.list, rank = excluded.rank, card = excluded.card",
		append([]any{id, e.List, e.Rank, bytes(e.Card)}, cond...)}
}

// List reads the entries of list from the index entries_list.
func (s *Store) List(ctx context.Context, list, from string, limit int) ([]store.Listed, error) {
	return s.list(ctx, list, "rank >= ?", from, limit)
}

// ListBelow is List below a rank.
func (s *Store) ListBelow(ctx context.Context, list, below string, limit int) ([]store.Listed, error) {
	if below == "" {
		return s.list(ctx, list, "rank >= ?", "", limit)
	}
	return s.list(ctx, list, "rank < ?", below, limit)
}

// list reads the entries of list whose rank meets cond (one placeholder,
// bound).
func (s *Store) list(ctx context.Context, list, cond, bound string, limit int) ([]store.Listed, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Unavailable("list", list, err)
	}
	limit = min(limit, store.MaxList)
	if list == "" || limit <= 0 {
		return nil, nil
	}
	r, err := s.run(ctx, "list", list, "all",
		"SELECT id, rank, hex(card) AS card FROM entries WHERE list = ? AND "+cond+" ORDER BY rank DESC, id DESC LIMIT ?",
		list, bound, limit)
	if err != nil {
		return nil, err
	}
	rows := r.Get("results")
	out := make([]store.Listed, rows.Length())
	for i := range out {
		row := rows.Index(i)
		card, err := hex.DecodeString(row.Get("card").String())
		if err != nil {
			return nil, fmt.Errorf("store: d1 list %q: %w: a card is not hex", list, store.ErrCorrupt)
		}
		if len(card) == 0 {
			card = nil
		}
		out[i] = store.Listed{ID: row.Get("id").String(), Rank: row.Get("rank").String(), Card: card}
	}
	return out, nil
}

// refused turns a conditional update's row count into the answer: one
// row changed is success; none is a conflict, or not found when the row
// is not there.
func (s *Store) refused(ctx context.Context, op, id string, expected int64, changed int) error {
	if changed == 1 {
		return nil
	}
	row, err := s.run(ctx, op, id, "first", "SELECT version FROM games WHERE id = ?", id)
	if err != nil {
		return err
	}
	if row.IsNull() || row.IsUndefined() {
		return fmt.Errorf("%s %q: %w", op, id, store.ErrNotFound)
	}
	return fmt.Errorf("%s %q at version %d (stored %d): %w", op, id, expected, row.Get("version").Int(), store.ErrConflict)
}

// Due lists the ids due by before, earliest first.
func (s *Store) Due(ctx context.Context, before time.Time, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Unavailable("due", "", err)
	}
	if limit <= 0 {
		return nil, nil
	}
	r, err := s.run(ctx, "due", "", "all",
		"SELECT id FROM games WHERE due IS NOT NULL AND due <= ? ORDER BY due, id LIMIT ?",
		before.Unix(), min(limit, 1000))
	if err != nil {
		return nil, err
	}
	rows := r.Get("results")
	ids := make([]string, rows.Length())
	for i := range ids {
		ids[i] = rows.Index(i).Get("id").String()
	}
	return ids, nil
}

// LoadMany reads the rows present among ids in one query (at most
// store.MaxLoadMany ids: D1 binds at most 100 parameters a statement).
func (s *Store) LoadMany(ctx context.Context, ids []string) (map[string]store.Item, error) {
	if err := store.CheckMany(ctx, ids); err != nil {
		return nil, err
	}
	out := make(map[string]store.Item, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	seen := make(map[string]bool, len(ids))
	args := make([]any, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	marks := strings.Repeat(", ?", len(args))[2:]
	r, err := s.run(ctx, "load many", fmt.Sprint(len(args), " ids"), "all",
		"SELECT id, "+columns+" FROM "+joined+" WHERE id IN ("+marks+")", args...)
	if err != nil {
		return nil, err
	}
	rows := r.Get("results")
	for i := range rows.Length() {
		row := rows.Index(i)
		id := row.Get("id").String()
		it, err := item(id, row)
		if err != nil {
			return nil, err
		}
		out[id] = it
	}
	return out, nil
}

// Expire deletes up to limit items whose expiry is before now, and returns how many it deleted. The Worker's Cron
// Trigger calls it.
func (s *Store) Expire(ctx context.Context, now time.Time, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, store.Unavailable("expire", "", err)
	}
	if limit <= 0 {
		return 0, nil
	}
	const expired = "id IN (SELECT id FROM games WHERE expires_at <= ? ORDER BY expires_at, id LIMIT ?)"
	rs, err := s.batch(ctx, "expire", "", []stmt{
		{"DELETE FROM entries WHERE " + expired, []any{now.Unix(), limit}},
		{"DELETE FROM games WHERE " + expired, []any{now.Unix(), limit}}})
	if err != nil {
		return 0, err
	}
	return changes(rs[1]), nil
}

// item reads one row of columns.
func item(id string, row js.Value) (store.Item, error) {
	state, err := hex.DecodeString(row.Get("state").String())
	if err != nil {
		return store.Item{}, fmt.Errorf("store: d1 %q: %w: the state is not hex: %v", id, store.ErrCorrupt, err)
	}
	if len(state) == 0 {
		state = nil
	}
	it := store.Item{
		Version:   int64(row.Get("version").Int()),
		State:     state,
		UpdatedAt: time.Unix(int64(row.Get("updated_s").Int()), int64(row.Get("updated_ns").Int())).UTC(),
	}
	if due := row.Get("due"); !due.IsNull() && !due.IsUndefined() {
		it.Due = time.Unix(int64(due.Int()), 0).UTC()
	}
	if exp := row.Get("expires_at"); !exp.IsNull() && !exp.IsUndefined() && int64(exp.Float()) != neverExpires {
		it.Expires = time.Unix(int64(exp.Float()), 0).UTC()
	}
	if list := row.Get("list"); list.Type() == js.TypeString && list.String() != "" {
		card, err := hex.DecodeString(row.Get("card").String())
		if err != nil {
			return store.Item{}, fmt.Errorf("store: d1 %q: %w: the card is not hex", id, store.ErrCorrupt)
		}
		it.Entry = store.Entry{List: list.String(), Rank: row.Get("rank").String()}
		if len(card) > 0 {
			it.Entry.Card = card
		}
	}
	return it, nil
}

// neverExpires is the expires_at of an item that never expires (the
// column is NOT NULL): 9999-12-31T23:59:59Z, past any Expire.
const neverExpires = 253402300799

// expiresValue is the expires_at column: Unix seconds, neverExpires for
// never.
func expiresValue(t time.Time) int64 {
	if t.IsZero() {
		return neverExpires
	}
	return t.Unix()
}

// dueValue is the due column: Unix seconds, or NULL for none.
func dueValue(due time.Time) any {
	if due.IsZero() {
		return nil
	}
	return store.NormalizeDue(due).Unix()
}

// bytes copies b into a new Uint8Array (bound as a BLOB).
func bytes(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// changes is a run result's meta.changes.
func changes(r js.Value) int {
	m := r.Get("meta")
	if m.IsUndefined() || m.IsNull() {
		return 0
	}
	return m.Get("changes").Int()
}

// batch runs stmts in one D1 batch (one transaction), awaiting their
// results in order.
func (s *Store) batch(ctx context.Context, op, id string, stmts []stmt) (rs []js.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = store.Unavailable(op, id, fmt.Errorf("d1: %v", p))
		}
	}()
	prepared := make([]any, len(stmts))
	for i, st := range stmts {
		args, err := jsArgs(op, id, st.args)
		if err != nil {
			return nil, err
		}
		prepared[i] = s.db.Call("prepare", st.sql).Call("bind", args...)
	}
	v, err := jsutil.Await(ctx, s.db.Call("batch", js.ValueOf(prepared)))
	if err != nil {
		return nil, store.Unavailable(op, id, err)
	}
	rs = make([]js.Value, v.Length())
	for i := range rs {
		rs[i] = v.Index(i)
	}
	if len(rs) != len(stmts) {
		return nil, store.Unavailable(op, id, fmt.Errorf("d1: a batch of %d statements answered %d results", len(stmts), len(rs)))
	}
	return rs, nil
}

// jsArgs makes args bindable: int64 as JS numbers (refusing what a JS
// number cannot hold), nil as null.
func jsArgs(op, id string, args []any) ([]any, error) {
	for i, a := range args {
		switch a := a.(type) {
		case int64:
			if a > maxSafe || a < -maxSafe {
				return nil, fmt.Errorf("store: d1 %s %q: %d does not fit a JS number", op, id, a)
			}
			args[i] = float64(a)
		case int:
			args[i] = float64(a)
		case nil:
			args[i] = js.Null()
		}
	}
	return args, nil
}

// run prepares sql, binds args and calls method ("run", "first" or "all")
// on it, awaiting the promise. Any failure, thrown or rejected, is
// store.ErrUnavailable.
func (s *Store) run(ctx context.Context, op, id, method, sql string, args ...any) (v js.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = store.Unavailable(op, id, fmt.Errorf("d1: %v", p))
		}
	}()
	args, err = jsArgs(op, id, args)
	if err != nil {
		return js.Undefined(), err
	}
	p := s.db.Call("prepare", sql).Call("bind", args...).Call(method)
	v, err = jsutil.Await(ctx, p)
	if err != nil {
		return js.Undefined(), store.Unavailable(op, id, err)
	}
	return v, nil
}

// Delete removes the row and its entry in one batch.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := store.CheckCall(ctx, "delete", id); err != nil {
		return err
	}
	_, err := s.batch(ctx, "delete", id, []stmt{{"DELETE FROM entries WHERE id = ?", []any{id}}, {"DELETE FROM games WHERE id = ?", []any{id}}})
	return err
}
