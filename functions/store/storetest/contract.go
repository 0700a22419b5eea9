package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"tessera/functions/store"
)

// t0 is the creation time used by the suite: nanoseconds and a non-UTC zone,
// so an adapter that rounds or drops the zone's offset is caught.
var t0 = time.Date(2026, time.March, 4, 5, 6, 7, 123456789, time.FixedZone("UTC+1", 3600))

// Run checks that the stores made by newStore meet the contract of
// store.Store. newStore is called once per subtest and should return an empty
// store (or one where the suite's ids are unused).
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	cases := []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"create then load returns version 1 with the state and time", testCreateLoad},
		{"create of a taken id is ErrExists and keeps the first", testCreateTwice},
		{"load of a missing id is ErrNotFound", testLoadMissing},
		{"save with the stored version increments it", testSaveIncrements},
		{"save with a stale version is ErrConflict and changes nothing", testSaveStale},
		{"save with a version ahead of the stored one is ErrConflict", testSaveAhead},
		{"save of a missing id is ErrNotFound", testSaveMissing},
		{"bytes are copied in and out, never aliased", testNoAliasing},
		{"updatedAt is kept as written, to the nanosecond", testUpdatedAtKept},
		{"an 8 KB state round trips", testLargeState},
		{"an empty state round trips", testEmptyState},
		{"games do not affect each other", testIndependentIDs},
		{"an empty id is an error but none of the sentinels", testEmptyID},
		{"a cancelled context is ErrUnavailable", testCancelledContext},
		{"of 32 concurrent saves of one version exactly one wins", testConcurrentSaves},
		{"load many returns the items present, as stored", testLoadMany},
		{"load many of 100 ids, none or some present", testLoadManyFull},
		{"load many refuses more than MaxLoadMany ids, an empty id and a cancelled context", testLoadManyRefuses},
		{"due lists the items due by a time, earliest first, from what create and save set", testDue},
		{"every write is at a new version: two saves of one version never both succeed; a save names the item's time, due and expiry, an earlier time too", testOneWritePerVersion},
		{"each write names its item's expiry, to the second; zero is never", testExpires},
		{"list reads the entries create and save set, highest rank first; a save names its entry, a save without one drops it", testList},
		{"a refused save leaves the entry as it was; bad entries are refused", testListRefused},
		{"delete removes the item, its entry and its due time; an absent one is no error; the id may be created again", testDelete},
	}
	eventual := false
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			_, eventual = s.(store.Eventual)
			c.run(t, s)
		})
	}
	if eventual { // only for the stores that offer it
		t.Run("an eventual load returns a version that was stored", func(t *testing.T) {
			testEventual(t, newStore(t))
		})
	}
}

// mustCreate creates id or fails the test.
func mustCreate(t *testing.T, s store.Store, id string, state []byte, now time.Time) {
	t.Helper()
	if err := s.Create(t.Context(), id, state, now, time.Time{}, now.Add(store.TTL)); err != nil {
		t.Fatalf("Create(%q) = %v, want nil", id, err)
	}
}

// mustSave saves id or fails the test.
func mustSave(t *testing.T, s store.Store, id string, state []byte, expected int64, now time.Time) {
	t.Helper()
	if err := s.Save(t.Context(), id, state, expected, now, time.Time{}, now.Add(store.TTL)); err != nil {
		t.Fatalf("Save(%q, expected %d) = %v, want nil", id, expected, err)
	}
}

// mustLoad loads id or fails the test.
func mustLoad(t *testing.T, s store.Store, id string) store.Item {
	t.Helper()
	item, err := s.Load(t.Context(), id)
	if err != nil {
		t.Fatalf("Load(%q) = %v, want nil", id, err)
	}
	return item
}

// wantItem compares a loaded item with the expected fields.
func wantItem(t *testing.T, got store.Item, version int64, state []byte, updatedAt time.Time) {
	t.Helper()
	if got.Version != version {
		t.Errorf("Version = %d, want %d", got.Version, version)
	}
	if !bytes.Equal(got.State, state) {
		t.Errorf("State = %q, want %q", abbrev(got.State), abbrev(state))
	}
	if !got.UpdatedAt.Equal(updatedAt) {
		t.Errorf("UpdatedAt = %v, want %v", got.UpdatedAt, updatedAt)
	}
}

// wantErr checks errors.Is(err, want).
func wantErr(t *testing.T, call string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s = %v, want %v", call, err, want)
	}
}

func abbrev(b []byte) string {
	if len(b) > 40 {
		return fmt.Sprintf("%q... (%d bytes)", b[:40], len(b))
	}
	return string(b)
}

func testCreateLoad(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", []byte("state one"), t0)
	wantItem(t, mustLoad(t, s, "g1"), 1, []byte("state one"), t0)
}

func testCreateTwice(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", []byte("first"), t0)
	err := s.Create(t.Context(), "g1", []byte("second"), t0.Add(time.Minute), time.Time{}, time.Time{})
	wantErr(t, "second Create", err, store.ErrExists)
	wantItem(t, mustLoad(t, s, "g1"), 1, []byte("first"), t0)
}

func testLoadMissing(t *testing.T, s store.Store) {
	_, err := s.Load(t.Context(), "nobody")
	wantErr(t, `Load("nobody")`, err, store.ErrNotFound)
}

func testSaveIncrements(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", []byte("v1"), t0)
	for v := int64(1); v < 5; v++ {
		state := fmt.Appendf(nil, "v%d", v+1)
		now := t0.Add(time.Duration(v) * time.Hour)
		mustSave(t, s, "g1", state, v, now)
		wantItem(t, mustLoad(t, s, "g1"), v+1, state, now)
	}
}

func testSaveStale(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", []byte("v1"), t0)
	t1 := t0.Add(time.Second)
	mustSave(t, s, "g1", []byte("v2"), 1, t1)
	err := s.Save(t.Context(), "g1", []byte("stale"), 1, t0.Add(time.Hour), time.Time{}, time.Time{})
	wantErr(t, "Save with expected 1 at version 2", err, store.ErrConflict)
	wantItem(t, mustLoad(t, s, "g1"), 2, []byte("v2"), t1)
}

func testSaveAhead(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", []byte("v1"), t0)
	err := s.Save(t.Context(), "g1", []byte("ahead"), 2, t0.Add(time.Hour), time.Time{}, time.Time{})
	wantErr(t, "Save with expected 2 at version 1", err, store.ErrConflict)
	wantItem(t, mustLoad(t, s, "g1"), 1, []byte("v1"), t0)
}

func testSaveMissing(t *testing.T, s store.Store) {
	err := s.Save(t.Context(), "nobody", []byte("x"), 1, t0, time.Time{}, time.Time{})
	wantErr(t, `Save("nobody")`, err, store.ErrNotFound)
	_, err = s.Load(t.Context(), "nobody")
	wantErr(t, "Load after a failed Save", err, store.ErrNotFound)
}

func testNoAliasing(t *testing.T, s store.Store) {
	in := []byte("original")
	mustCreate(t, s, "g1", in, t0)
	copy(in, "XXXXXXXX") // the caller reuses its buffer after Create
	got := mustLoad(t, s, "g1")
	wantItem(t, got, 1, []byte("original"), t0)

	copy(got.State, "YYYYYYYY") // the caller scribbles on what Load gave it
	wantItem(t, mustLoad(t, s, "g1"), 1, []byte("original"), t0)

	in = []byte("second")
	mustSave(t, s, "g1", in, 1, t0)
	copy(in, "ZZZZZZ") // and reuses its buffer after Save
	wantItem(t, mustLoad(t, s, "g1"), 2, []byte("second"), t0)
}

func testUpdatedAtKept(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", []byte("v1"), t0)
	got := mustLoad(t, s, "g1")
	if !got.UpdatedAt.Equal(t0) {
		t.Fatalf("after Create: UpdatedAt = %v, want %v", got.UpdatedAt, t0)
	}
	if got.UpdatedAt.Location() != time.UTC {
		t.Errorf("UpdatedAt location = %v, want UTC", got.UpdatedAt.Location())
	}
	// A save at another time replaces it; a time with a monotonic reading
	// (time.Now) is stored by its wall clock.
	now := time.Now()
	mustSave(t, s, "g1", []byte("v2"), 1, now)
	if got := mustLoad(t, s, "g1"); !got.UpdatedAt.Equal(now) {
		t.Errorf("after Save: UpdatedAt = %v, want %v", got.UpdatedAt, now)
	}
}

func testLargeState(t *testing.T, s store.Store) {
	rng := rand.New(rand.NewPCG(1, 2))
	big := make([]byte, 8<<10)
	for i := range big {
		big[i] = byte(rng.UintN(256))
	}
	mustCreate(t, s, "g1", big, t0)
	wantItem(t, mustLoad(t, s, "g1"), 1, big, t0)
	big[0]++
	mustSave(t, s, "g1", big, 1, t0)
	wantItem(t, mustLoad(t, s, "g1"), 2, big, t0)
}

func testEmptyState(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", nil, t0)
	wantItem(t, mustLoad(t, s, "g1"), 1, nil, t0)
	mustSave(t, s, "g1", []byte{}, 1, t0)
	wantItem(t, mustLoad(t, s, "g1"), 2, nil, t0)
}

func testIndependentIDs(t *testing.T, s store.Store) {
	mustCreate(t, s, "a", []byte("a1"), t0)
	mustCreate(t, s, "b", []byte("b1"), t0)
	mustSave(t, s, "a", []byte("a2"), 1, t0)
	wantItem(t, mustLoad(t, s, "a"), 2, []byte("a2"), t0)
	wantItem(t, mustLoad(t, s, "b"), 1, []byte("b1"), t0)
	_, err := s.Load(t.Context(), "ab")
	wantErr(t, `Load("ab")`, err, store.ErrNotFound)
}

func testEmptyID(t *testing.T, s store.Store) {
	errs := map[string]error{
		"Create": s.Create(t.Context(), "", []byte("x"), t0, time.Time{}, time.Time{}),
		"Save":   s.Save(t.Context(), "", []byte("x"), 1, t0, time.Time{}, time.Time{}),
	}
	_, errs["Load"] = s.Load(t.Context(), "")
	for call, err := range errs {
		if err == nil {
			t.Errorf(`%s("") = nil, want an error`, call)
		}
		for _, sentinel := range []error{store.ErrNotFound, store.ErrExists, store.ErrConflict, store.ErrUnavailable} {
			if errors.Is(err, sentinel) {
				t.Errorf(`%s("") = %v, want none of the sentinels`, call, err)
			}
		}
	}
}

func testCancelledContext(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", []byte("v1"), t0)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	errs := map[string]error{
		"Create": s.Create(cancelled, "g2", []byte("x"), t0, time.Time{}, time.Time{}),
		"Save":   s.Save(cancelled, "g1", []byte("x"), 1, t0, time.Time{}, time.Time{}),
	}
	_, errs["Load"] = s.Load(cancelled, "g1")
	for call, err := range errs {
		if !errors.Is(err, store.ErrUnavailable) || !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context = %v, want ErrUnavailable wrapping context.Canceled", call, err)
		}
	}
	wantItem(t, mustLoad(t, s, "g1"), 1, []byte("v1"), t0)
	_, err := s.Load(t.Context(), "g2")
	wantErr(t, "Load of the id a cancelled Create named", err, store.ErrNotFound)
}

func testConcurrentSaves(t *testing.T, s store.Store) {
	const writers = 32
	mustCreate(t, s, "g1", []byte("v1"), t0)
	mustSave(t, s, "g1", []byte("v2"), 1, t0) // race at version 2, not 1
	const expected = 2

	var (
		start = make(chan struct{})
		wg    sync.WaitGroup
		errs  = make([]error, writers)
	)
	for i := range writers {
		wg.Go(func() {
			<-start
			errs[i] = s.Save(t.Context(), "g1", fmt.Appendf(nil, "writer %d", i), expected, t0.Add(time.Duration(i)*time.Second), time.Time{}, time.Time{})
		})
	}
	close(start)
	wg.Wait()

	winner, conflicts := -1, 0
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Errorf("writers %d and %d both succeeded", winner, i)
		case err == nil:
			winner = i
		case errors.Is(err, store.ErrConflict):
			conflicts++
		default:
			t.Errorf("writer %d: Save = %v, want nil or ErrConflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatalf("no writer succeeded; %d conflicts", conflicts)
	}
	if conflicts != writers-1 {
		t.Errorf("conflicts = %d, want %d", conflicts, writers-1)
	}
	wantItem(t, mustLoad(t, s, "g1"), expected+1, fmt.Appendf(nil, "writer %d", winner), t0.Add(time.Duration(winner)*time.Second))
}

func testLoadMany(t *testing.T, s store.Store) {
	mustCreate(t, s, "a", []byte("a1"), t0)
	mustCreate(t, s, "b", []byte("b1"), t0)
	mustSave(t, s, "b", []byte("b2"), 1, t0.Add(time.Second))
	mustCreate(t, s, "e", nil, t0)
	got, err := s.LoadMany(t.Context(), []string{"b", "missing", "a", "b", "e"})
	if err != nil {
		t.Fatalf("LoadMany = %v", err)
	}
	if len(got) != 3 {
		t.Fatalf("LoadMany gave %d items, want 3 (a, b, e): %v", len(got), got)
	}
	wantItem(t, got["a"], 1, []byte("a1"), t0)
	wantItem(t, got["b"], 2, []byte("b2"), t0.Add(time.Second))
	wantItem(t, got["e"], 1, nil, t0)
	got["a"].State[0] = 'X'
	wantItem(t, mustLoad(t, s, "a"), 1, []byte("a1"), t0)
	none, err := s.LoadMany(t.Context(), nil)
	if err != nil || len(none) != 0 {
		t.Fatalf("LoadMany(nil) = %v, %v; want empty", none, err)
	}
}

func testLoadManyFull(t *testing.T, s store.Store) {
	ids := make([]string, store.MaxLoadMany)
	for i := range ids {
		ids[i] = fmt.Sprintf("g%03d", i)
	}
	got, err := s.LoadMany(t.Context(), ids)
	if err != nil || len(got) != 0 {
		t.Fatalf("LoadMany of %d absent ids = %d items, %v; want none", len(ids), len(got), err)
	}
	for i := 0; i < len(ids); i += 3 {
		mustCreate(t, s, ids[i], []byte(ids[i]), t0)
	}
	got, err = s.LoadMany(t.Context(), ids)
	if err != nil {
		t.Fatalf("LoadMany = %v", err)
	}
	if want := (len(ids) + 2) / 3; len(got) != want {
		t.Fatalf("LoadMany gave %d items, want %d", len(got), want)
	}
	for i := 0; i < len(ids); i += 3 {
		wantItem(t, got[ids[i]], 1, []byte(ids[i]), t0)
	}
}

func testLoadManyRefuses(t *testing.T, s store.Store) {
	mustCreate(t, s, "g1", []byte("v1"), t0)
	if _, err := s.LoadMany(t.Context(), make([]string, store.MaxLoadMany+1)); err == nil {
		t.Error("LoadMany of MaxLoadMany+1 ids = nil error")
	}
	_, err := s.LoadMany(t.Context(), []string{"g1", ""})
	if !errors.Is(err, store.ErrEmptyID) {
		t.Errorf(`LoadMany with "" = %v, want ErrEmptyID`, err)
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = s.LoadMany(cancelled, []string{"g1"})
	wantErr(t, "LoadMany(cancelled)", err, store.ErrUnavailable)
}

func testDue(t *testing.T, s store.Store) {
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	ids := func(before time.Time, limit int) []string {
		t.Helper()
		got, err := s.Due(t.Context(), before, limit)
		if err != nil {
			t.Fatalf("Due = %v", err)
		}
		return got
	}
	if got := ids(at(1000), 10); len(got) != 0 {
		t.Fatalf("Due on an empty store = %v", got)
	}
	mustCreateDue(t, s, "late", at(300))
	mustCreateDue(t, s, "early", at(100))
	mustCreateDue(t, s, "never", time.Time{})
	mustCreateDue(t, s, "mid", at(200).Add(400*time.Millisecond)) // kept to the second
	if item := mustLoad(t, s, "mid"); !item.Due.Equal(store.NormalizeDue(at(200))) {
		t.Errorf("Load().Due = %v, want %v (to the second)", item.Due, store.NormalizeDue(at(200)))
	}
	if got := ids(at(250), 10); fmt.Sprint(got) != "[early mid]" {
		t.Errorf("Due(t+250s) = %v, want [early mid]", got)
	}
	if got := ids(at(200), 10); fmt.Sprint(got) != "[early mid]" {
		t.Errorf("Due(t+200s) = %v, want [early mid] (due at 200 is due at 200)", got)
	}
	if got := ids(at(1000), 2); fmt.Sprint(got) != "[early mid]" {
		t.Errorf("Due(limit 2) = %v, want the two earliest", got)
	}
	// A save moves the item in the index, or takes it out.
	mustSaveDue(t, s, "early", 1, at(400))
	mustSaveDue(t, s, "mid", 1, time.Time{})
	if got := ids(at(1000), 10); fmt.Sprint(got) != "[late early]" {
		t.Errorf("after the saves Due = %v, want [late early]", got)
	}
	if item := mustLoad(t, s, "mid"); !item.Due.IsZero() {
		t.Errorf("a save without a due time left %v", item.Due)
	}
	// A failed save changes nothing in the index either.
	if err := s.Save(t.Context(), "late", []byte("x"), 7, t0, at(1), time.Time{}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale Save = %v", err)
	}
	if got := ids(at(100), 10); len(got) != 0 {
		t.Errorf("a refused save moved an item in the index: %v", got)
	}
}

func mustCreateDue(t *testing.T, s store.Store, id string, due time.Time) {
	t.Helper()
	if err := s.Create(t.Context(), id, []byte(id), t0, due, time.Time{}); err != nil {
		t.Fatalf("Create(%s) = %v", id, err)
	}
}

func mustSaveDue(t *testing.T, s store.Store, id string, expected int64, due time.Time) {
	t.Helper()
	if err := s.Save(t.Context(), id, []byte(id+"'"), expected, t0.Add(time.Second), due, time.Time{}); err != nil {
		t.Fatalf("Save(%s) = %v", id, err)
	}
}

func testOneWritePerVersion(t *testing.T, s store.Store) {
	due := t0.Add(time.Hour)
	mustCreateDue(t, s, "g1", due)
	mustSave(t, s, "g1", []byte("v2"), 1, t0.Add(time.Minute))
	// What the service notes without changing a game (a settle mark, a
	// chat's seq) is a save at the next version that names the game's
	// time of the last change, earlier than the last write's.
	if err := s.Save(t.Context(), "g1", []byte("noted"), 2, t0.Add(time.Minute), due, time.Time{}); err != nil {
		t.Fatalf("Save of a note = %v", err)
	}
	item := mustLoad(t, s, "g1")
	wantItem(t, item, 3, []byte("noted"), t0.Add(time.Minute))
	if !item.Due.Equal(store.NormalizeDue(due)) {
		t.Errorf("Due after the note = %v, want %v", item.Due, store.NormalizeDue(due))
	}
	if got, _ := s.Due(t.Context(), due, 5); fmt.Sprint(got) != "[g1]" {
		t.Errorf("Due after the note = %v", got)
	}
	// A writer that read version 2 (before the note) cannot write over it.
	wantErr(t, "Save(read before the note)", s.Save(t.Context(), "g1", []byte("lost"), 2, t0.Add(2*time.Minute), due, time.Time{}), store.ErrConflict)
	wantItem(t, mustLoad(t, s, "g1"), 3, []byte("noted"), t0.Add(time.Minute))
	if err := s.Save(t.Context(), "g1", []byte("v4"), 3, t0.Add(2*time.Minute), time.Time{}, time.Time{}); err != nil {
		t.Fatalf("Save = %v", err)
	}
	if got, _ := s.Due(t.Context(), due.Add(time.Hour), 5); len(got) != 0 {
		t.Errorf("Due after a save to none = %v", got)
	}
	wantItem(t, mustLoad(t, s, "g1"), 4, []byte("v4"), t0.Add(2*time.Minute))
	// Two writers that write the very same bytes at the same version and
	// time (two counts made in one second on a frozen clock) are still
	// two: one wins, the other conflicts, whatever the adapter does to
	// recognize its own retried write.
	mustSave(t, s, "g1", []byte("same"), 4, t0.Add(3*time.Minute))
	wantErr(t, "a second identical Save", s.Save(t.Context(), "g1", []byte("same"), 4, t0.Add(3*time.Minute), time.Time{}, time.Time{}), store.ErrConflict)
	mustCreate(t, s, "g2", []byte("same"), t0)
	wantErr(t, "a second identical Create", s.Create(t.Context(), "g2", []byte("same"), t0, time.Time{}, time.Time{}), store.ErrExists)
}

// testEventual: where the store offers store.Eventual, LoadEventual returns
// the item as it was at some version up to the current one (this suite's
// stores are all consistent in the end, so the current one after a while),
// ErrNotFound for a missing id and the same errors as Load.
func testEventual(t *testing.T, s store.Store) {
	ev := s.(store.Eventual)
	mustCreate(t, s, "g1", []byte("one"), t0)
	mustSave(t, s, "g1", []byte("two"), 1, t0.Add(time.Second))
	states := map[int64]string{1: "one", 2: "two"}
	got, err := ev.LoadEventual(t.Context(), "g1")
	if err != nil {
		t.Fatalf("LoadEventual: %v", err)
	}
	if want, ok := states[got.Version]; !ok || string(got.State) != want {
		t.Errorf("LoadEventual = version %d state %q, want one that was stored", got.Version, got.State)
	}
	deadline := time.Now().Add(5 * time.Second)
	for got.Version != 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if got, err = ev.LoadEventual(t.Context(), "g1"); err != nil {
			t.Fatalf("LoadEventual: %v", err)
		}
	}
	wantItem(t, got, 2, []byte("two"), t0.Add(time.Second))
	_, err = ev.LoadEventual(t.Context(), "missing")
	wantErr(t, "LoadEventual(missing)", err, store.ErrNotFound)
	if _, err := ev.LoadEventual(t.Context(), ""); !errors.Is(err, store.ErrEmptyID) {
		t.Errorf("LoadEventual(\"\") = %v, want ErrEmptyID", err)
	}
}

func testExpires(t *testing.T, s store.Store) {
	exp := t0.Add(store.TTL + 1500*time.Millisecond)
	if err := s.Create(t.Context(), "g1", []byte("v1"), t0, time.Time{}, exp); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(t.Context(), "forever", []byte("k"), t0, time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, "g1").Expires; !got.Equal(store.NormalizeDue(exp)) {
		t.Errorf("Expires after Create = %v, want %v", got, store.NormalizeDue(exp))
	}
	if got := mustLoad(t, s, "forever").Expires; !got.IsZero() {
		t.Errorf("an item that never expires reads back Expires %v", got)
	}
	later := exp.Add(24 * time.Hour)
	if err := s.Save(t.Context(), "g1", []byte("v2"), 1, t0.Add(time.Hour), time.Time{}, later); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, "g1").Expires; !got.Equal(store.NormalizeDue(later)) {
		t.Errorf("Expires after Save = %v, want %v", got, store.NormalizeDue(later))
	}
	if err := s.Save(t.Context(), "forever", []byte("k2"), 1, t0.Add(time.Hour), time.Time{}, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, "forever").Expires; !got.IsZero() {
		t.Errorf("a save that names no expiry reads back Expires %v", got)
	}
	// Where the store deletes expired items itself, it deletes g1 at its
	// expiry and never the other.
	if ex, ok := s.(interface {
		Expire(context.Context, time.Time, int) (int, error)
	}); ok {
		if n, err := ex.Expire(t.Context(), later.Add(-time.Second), 10); err != nil || n != 0 {
			t.Errorf("Expire before the expiry = %d, %v", n, err)
		}
		if n, err := ex.Expire(t.Context(), later.Add(100*365*24*time.Hour), 10); err != nil || n != 1 {
			t.Errorf("Expire a century on = %d, %v; want 1", n, err)
		}
		mustLoad(t, s, "forever")
	}
}

func entry(list, rank, card string) store.Entry {
	e := store.Entry{List: list, Rank: rank}
	if card != "" {
		e.Card = []byte(card)
	}
	return e
}

// listed reads list from from and writes it as "id:rank:card ...".
func listed(t *testing.T, s store.Store, list, from string, limit int) string {
	t.Helper()
	l, err := s.List(t.Context(), list, from, limit)
	if err != nil {
		t.Fatalf("List(%q) = %v", list, err)
	}
	out := ""
	for _, e := range l {
		out += fmt.Sprintf("%s:%s:%s ", e.ID, e.Rank, e.Card)
	}
	return out
}

// waitListed polls list until it reads want (DynamoDB's indexes are
// eventually consistent; the others answer at once).
func waitListed(t *testing.T, s store.Store, list, from string, limit int, want string) {
	t.Helper()
	var got string
	for i := 0; i < 50; i++ {
		if got = listed(t, s, list, from, limit); got == want {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("List(%q, from %q, %d) = %q, want %q", list, from, limit, got, want)
}

func testList(t *testing.T, s store.Store) {
	ctx := t.Context()
	exp := t0.Add(store.TTL)
	for _, c := range []struct {
		id string
		e  store.Entry
	}{{"a", entry("room", "2026-01-02a", "A")}, {"b", entry("room", "2026-01-03", "B")},
		{"c", entry("room", "2026-01-02c", "C")}, {"d", entry("board", "0500", "D")}, {"e", store.Entry{}}} {
		if err := s.CreateListed(ctx, c.id, []byte(c.id), t0, time.Time{}, exp, c.e); err != nil {
			t.Fatalf("CreateListed(%q) = %v", c.id, err)
		}
	}
	waitListed(t, s, "room", "", 10, "b:2026-01-03:B c:2026-01-02c:C a:2026-01-02a:A ")
	waitListed(t, s, "room", "2026-01-03", 10, "b:2026-01-03:B ")
	waitListed(t, s, "room", "", 2, "b:2026-01-03:B c:2026-01-02c:C ")
	waitListed(t, s, "board", "", 10, "d:0500:D ")
	waitListed(t, s, "nothing", "", 10, "")
	// ListBelow pages down: below a rank, highest first (the entries are
	// in the index: waitListed saw them).
	below := func(below string, limit int) string {
		l, err := s.ListBelow(ctx, "room", below, limit)
		if err != nil {
			t.Fatalf("ListBelow(room, %q) = %v", below, err)
		}
		got := ""
		for _, e := range l {
			got += e.ID + ":" + e.Rank + " "
		}
		return got
	}
	for _, c := range []struct {
		below string
		limit int
		want  string
	}{{"", 10, "b:2026-01-03 c:2026-01-02c a:2026-01-02a "}, {"", 1, "b:2026-01-03 "}, {"2026-01-03", 1, "c:2026-01-02c "},
		{"2026-01-02c", 10, "a:2026-01-02a "}, {"2026-01-02b", 10, "a:2026-01-02a "}, {"2026-01-02a", 10, ""}, {"2026-01-02", 10, ""}, {"z", 2, "b:2026-01-03 c:2026-01-02c "}} {
		if got := below(c.below, c.limit); got != c.want {
			t.Errorf("ListBelow(room, %q, %d) = %q, want %q", c.below, c.limit, got, c.want)
		}
	}
	if got := mustLoad(t, s, "a").Entry; got.List != "room" || got.Rank != "2026-01-02a" || string(got.Card) != "A" {
		t.Errorf("Load(a).Entry = %+v", got)
	}
	if got := mustLoad(t, s, "e").Entry; got.List != "" || got.Rank != "" || len(got.Card) != 0 {
		t.Errorf("Load(e).Entry = %+v, want none", got)
	}
	// A new rank moves the entry; a save that names the same entry keeps
	// it; a save without one drops it.
	if err := s.SaveListed(ctx, "a", []byte("a2"), 1, t0.Add(time.Second), time.Time{}, exp, entry("room", "2026-01-04", "A2")); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveListed(ctx, "a", []byte("a2'"), 2, t0.Add(time.Second), time.Time{}, exp, entry("room", "2026-01-04", "A2")); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, "c", []byte("c2"), 1, t0.Add(time.Second), time.Time{}, exp); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveListed(ctx, "d", []byte("d2"), 1, t0.Add(time.Second), time.Time{}, exp, entry("room", "2026-01-01", "")); err != nil {
		t.Fatal(err)
	}
	waitListed(t, s, "room", "", 10, "a:2026-01-04:A2 b:2026-01-03:B d:2026-01-01: ")
	waitListed(t, s, "board", "", 10, "")
	if got := mustLoad(t, s, "a"); string(got.State) != "a2'" || got.Entry.Rank != "2026-01-04" {
		t.Errorf("after a second save: state %q, entry %+v", got.State, got.Entry)
	}
}

func testListRefused(t *testing.T, s store.Store) {
	ctx := t.Context()
	if err := s.CreateListed(ctx, "a", []byte("a"), t0, time.Time{}, time.Time{}, entry("room", "5", "A")); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveListed(ctx, "a", []byte("x"), 7, t0, time.Time{}, time.Time{}, entry("room", "9", "X")); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale SaveListed = %v, want ErrConflict", err)
	}
	if err := s.CreateListed(ctx, "a", []byte("y"), t0, time.Time{}, time.Time{}, entry("room", "8", "Y")); !errors.Is(err, store.ErrExists) {
		t.Fatalf("CreateListed of a taken id = %v, want ErrExists", err)
	}
	for name, e := range map[string]store.Entry{
		"rank without a list": {Rank: "1"},
		"list without a rank": {List: "room"},
		"a zero byte":         {List: "ro\x00om", Rank: "1"},
		"a card too large":    {List: "room", Rank: "1", Card: make([]byte, store.MaxCard+1)},
	} {
		if err := s.SaveListed(ctx, "a", []byte("z"), 1, t0, time.Time{}, time.Time{}, e); err == nil || errors.Is(err, store.ErrConflict) {
			t.Errorf("SaveListed with %s = %v, want a caller error", name, err)
		}
	}
	waitListed(t, s, "room", "", 10, "a:5:A ")
	if got := mustLoad(t, s, "a"); got.Version != 1 || string(got.State) != "a" {
		t.Errorf("after refusals: version %d state %q", got.Version, got.State)
	}
}

func testDelete(t *testing.T, s store.Store) {
	ctx := t.Context()
	exp := t0.Add(store.TTL)
	due := t0.Add(time.Minute)
	if err := s.CreateListed(ctx, "gone", []byte("secret"), t0, due, exp, entry("room", "r1", "G")); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "kept", []byte("kept"), t0)
	waitListed(t, s, "room", "", 10, "gone:r1:G ")
	for range 2 { // again: no error
		if err := s.Delete(ctx, "gone"); err != nil {
			t.Fatalf("Delete = %v", err)
		}
	}
	if _, err := s.Load(ctx, "gone"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Load after Delete = %v, want ErrNotFound", err)
	}
	if items, err := s.LoadMany(ctx, []string{"gone", "kept"}); err != nil || len(items) != 1 {
		t.Fatalf("LoadMany after Delete = %v, %v", items, err)
	}
	waitListed(t, s, "room", "", 10, "")
	if got, err := s.Due(ctx, due.Add(time.Hour), 10); err != nil || len(got) != 0 {
		t.Fatalf("Due after Delete = %v, %v", got, err)
	}
	if err := s.Save(ctx, "gone", []byte("x"), 1, t0, time.Time{}, exp); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Save after Delete = %v, want ErrNotFound", err)
	}
	mustCreate(t, s, "gone", []byte("new"), t0)
	if item := mustLoad(t, s, "gone"); item.Version != 1 || string(item.State) != "new" {
		t.Fatalf("created again: %+v", item)
	}
	if item := mustLoad(t, s, "kept"); string(item.State) != "kept" {
		t.Fatalf("another item: %+v", item)
	}
	if err := s.Delete(ctx, ""); err == nil {
		t.Fatal("Delete of an empty id is no error")
	}
}
