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

const columns = "version, hex(state) AS state, updated_s, updated_ns, due, expires_at"

// Create inserts the row at version 1 unless the id is taken.
func (s *Store) Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error {
	if err := store.CheckCall(ctx, "create", id); err != nil {
		return err
	}
	now = store.NormalizeTime(now)
	r, err := s.run(ctx, "create", id, "run",
		"INSERT INTO games (id, version, state, updated_s, updated_ns, due, expires_at) VALUES (?, 1, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
		id, bytes(state), now.Unix(), now.Nanosecond(), dueValue(due), expiresValue(expires))
	if err != nil {
		return err
	}
	if changes(r) == 0 {
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
	row, err := s.run(ctx, "load", id, "first", "SELECT "+columns+" FROM games WHERE id = ?", id)
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
	now = store.NormalizeTime(now)
	r, err := s.run(ctx, "save", id, "run",
		"UPDATE games SET version = version + 1, state = ?, updated_s = ?, updated_ns = ?, due = ?, expires_at = ? WHERE id = ? AND version = ?",
		bytes(state), now.Unix(), now.Nanosecond(), dueValue(due), expiresValue(expires), id, expected)
	if err != nil {
		return err
	}
	return s.refused(ctx, "save", id, expected, changes(r))
}

// Touch replaces the state and due time at version, keeping the version,
// the time of the last write and the expiry.
func (s *Store) Touch(ctx context.Context, id string, state []byte, version int64, due time.Time) error {
	if err := store.CheckCall(ctx, "touch", id); err != nil {
		return err
	}
	if version < 0 || version >= maxSafe {
		return fmt.Errorf("touch %q at version %d: %w", id, version, store.ErrConflict)
	}
	r, err := s.run(ctx, "touch", id, "run",
		"UPDATE games SET state = ?, due = ? WHERE id = ? AND version = ?",
		bytes(state), dueValue(due), id, version)
	if err != nil {
		return err
	}
	return s.refused(ctx, "touch", id, version, changes(r))
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
		"SELECT id, "+columns+" FROM games WHERE id IN ("+marks+")", args...)
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
	r, err := s.run(ctx, "expire", "", "run",
		"DELETE FROM games WHERE id IN (SELECT id FROM games WHERE expires_at <= ? LIMIT ?)",
		now.Unix(), limit)
	if err != nil {
		return 0, err
	}
	return changes(r), nil
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

// run prepares sql, binds args and calls method ("run", "first" or "all")
// on it, awaiting the promise. Any failure, thrown or rejected, is
// store.ErrUnavailable.
func (s *Store) run(ctx context.Context, op, id, method, sql string, args ...any) (v js.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = store.Unavailable(op, id, fmt.Errorf("d1: %v", p))
		}
	}()
	for i, a := range args {
		switch a := a.(type) {
		case int64:
			if a > maxSafe || a < -maxSafe {
				return js.Undefined(), fmt.Errorf("store: d1 %s %q: %d does not fit a JS number", op, id, a)
			}
			args[i] = float64(a)
		case nil:
			args[i] = js.Null()
		}
	}
	p := s.db.Call("prepare", sql).Call("bind", args...).Call(method)
	v, err = jsutil.Await(ctx, p)
	if err != nil {
		return js.Undefined(), store.Unavailable(op, id, err)
	}
	return v, nil
}
