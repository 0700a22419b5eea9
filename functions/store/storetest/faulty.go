package storetest

import (
	"context"
	"sync"
	"time"

	"tessera/functions/store"
)

// Faulty wraps a Store for tests of the code that uses it. Without
// instructions it passes every call through. It can be told to fail the next
// calls with given errors, e.g.
//
//	f.FailNextLoad(fmt.Errorf("%w: injected timeout", store.ErrUnavailable))
//
// to report a write as failed although it was made (a lost response), and to
// run a hook just before a Save reaches the inner store, so that a test can
// slip a concurrent writer in between a Load and a Save.
//
// Hooks run without Faulty's lock held; a hook that writes should use Inner,
// not the Faulty, so that it is not itself faulted or hooked.
type Faulty struct {
	Inner store.Store

	mu              sync.Mutex
	loadErrs        []error
	loadManyErrs    []error
	saveErrs        []error
	createErrs      []error
	lostSaveErrs    []error
	beforeNextSave  []func(ctx context.Context, id string, expected int64)
	beforeEverySave func(ctx context.Context, id string, expected int64)
	loads           int
	saves           int
	creates         int
}

var _ store.Store = (*Faulty)(nil)

// NewFaulty wraps inner.
func NewFaulty(inner store.Store) *Faulty {
	return &Faulty{Inner: inner}
}

// FailNextLoad makes the next len(errs) Loads fail, in order, with errs.
func (f *Faulty) FailNextLoad(errs ...error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.loadErrs = append(f.loadErrs, errs...)
}

// FailNextLoadMany makes the next len(errs) LoadManys fail, in order, with
// errs.
func (f *Faulty) FailNextLoadMany(errs ...error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.loadManyErrs = append(f.loadManyErrs, errs...)
}

// FailNextSave makes the next len(errs) Saves fail, in order, with errs,
// without writing.
func (f *Faulty) FailNextSave(errs ...error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saveErrs = append(f.saveErrs, errs...)
}

// FailNextCreate makes the next len(errs) Creates fail, in order, with errs,
// without writing.
func (f *Faulty) FailNextCreate(errs ...error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.createErrs = append(f.createErrs, errs...)
}

// LoseNextSaveResponse makes the next Save write through to the inner store
// and then, if that succeeded, return err anyway: the client never heard
// that its write landed (a time-out after the fact).
func (f *Faulty) LoseNextSaveResponse(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lostSaveErrs = append(f.lostSaveErrs, err)
}

// BeforeNextSave runs hook once, just before the next Save that is not
// failed outright goes to the inner store.
func (f *Faulty) BeforeNextSave(hook func(ctx context.Context, id string, expected int64)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.beforeNextSave = append(f.beforeNextSave, hook)
}

// BeforeEverySave runs hook before every Save that is not failed outright,
// until it is called again with nil.
func (f *Faulty) BeforeEverySave(hook func(ctx context.Context, id string, expected int64)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.beforeEverySave = hook
}

// Calls reports how many times each method was called, faulted or not.
func (f *Faulty) Calls() (creates, loads, saves int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.creates, f.loads, f.saves
}

// Create passes through unless a failure is queued.
func (f *Faulty) Create(ctx context.Context, id string, state []byte, now, due, expires time.Time) error {
	return f.CreateListed(ctx, id, state, now, due, expires, store.Entry{})
}

// CreateListed passes through unless a failure is queued.
func (f *Faulty) CreateListed(ctx context.Context, id string, state []byte, now, due, expires time.Time, e store.Entry) error {
	f.mu.Lock()
	f.creates++
	err := pop(&f.createErrs)
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.Inner.CreateListed(ctx, id, state, now, due, expires, e)
}

// Delete passes through.
func (f *Faulty) Delete(ctx context.Context, id string) error { return f.Inner.Delete(ctx, id) }

// List passes through.
func (f *Faulty) List(ctx context.Context, list, from string, limit int) ([]store.Listed, error) {
	return f.Inner.List(ctx, list, from, limit)
}

// ListBelow passes through.
func (f *Faulty) ListBelow(ctx context.Context, list, below string, limit int) ([]store.Listed, error) {
	return f.Inner.ListBelow(ctx, list, below, limit)
}

// Load passes through unless a failure is queued.
func (f *Faulty) Load(ctx context.Context, id string) (store.Item, error) {
	f.mu.Lock()
	f.loads++
	err := pop(&f.loadErrs)
	f.mu.Unlock()
	if err != nil {
		return store.Item{}, err
	}
	return f.Inner.Load(ctx, id)
}

// Due passes through.
func (f *Faulty) Due(ctx context.Context, before time.Time, limit int) ([]string, error) {
	return f.Inner.Due(ctx, before, limit)
}

// LoadMany passes through unless a failure is queued.
func (f *Faulty) LoadMany(ctx context.Context, ids []string) (map[string]store.Item, error) {
	f.mu.Lock()
	err := pop(&f.loadManyErrs)
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return f.Inner.LoadMany(ctx, ids)
}

// Save fails if a failure is queued; else runs the hooks, writes through,
// and loses the response if told to.
func (f *Faulty) Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error {
	return f.SaveListed(ctx, id, state, expected, now, due, expires, store.Entry{})
}

// SaveListed is Save with an entry, faulted as Save.
func (f *Faulty) SaveListed(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time, e store.Entry) error {
	f.mu.Lock()
	f.saves++
	err := pop(&f.saveErrs)
	var once, every func(context.Context, string, int64)
	var lost error
	if err == nil {
		once = pop(&f.beforeNextSave)
		every = f.beforeEverySave
		lost = pop(&f.lostSaveErrs)
	}
	f.mu.Unlock()
	if err != nil {
		return err
	}
	if once != nil {
		once(ctx, id, expected)
	}
	if every != nil {
		every(ctx, id, expected)
	}
	if err := f.Inner.SaveListed(ctx, id, state, expected, now, due, expires, e); err != nil {
		return err
	}
	return lost
}

// pop removes and returns the first element of the queue, or the zero value.
func pop[T any](queue *[]T) T {
	var first T
	if len(*queue) > 0 {
		first = (*queue)[0]
		*queue = (*queue)[1:]
	}
	return first
}
