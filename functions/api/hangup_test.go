package api

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tessera/functions/store"
	"tessera/functions/store/storetest"
)

// hangUp is a store whose writes first cancel the request's context, as a
// client that hangs up while its move is being saved.
type hangUp struct {
	store.Store
	cancel context.CancelFunc
}

func (h hangUp) Save(ctx context.Context, id string, state []byte, expected int64, now, due, expires time.Time) error {
	if h.cancel != nil {
		h.cancel()
	}
	return h.Store.Save(ctx, id, state, expected, now, due, expires)
}

// TestAHangUpDoesNotCancelTheSave: against a real DynamoDB wire protocol
// (dynalite), a client that hangs up just as its move is saved still has
// the move saved whole, and the store goes on answering.
func TestAHangUpDoesNotCancelTheSave(t *testing.T) {
	d := storetest.NewDynalite(t)
	s := newServer(t, d, 31)
	id, tokens := s.fullGame(`{"variant":"fiveup","players":2,"redeal":false,"name":"Ana"}`)
	version, actor, body := s.firstPlay(id, tokens, "hang-up-1")

	ctx, cancel := context.WithCancel(context.Background())
	h := New(Config{Store: hangUp{Store: d, cancel: cancel}, Now: func() time.Time { return fixedNow }})
	req := httptest.NewRequest("POST", "/api/games/"+id+"/moves", strings.NewReader(body)).WithContext(ctx)
	req.Header.Set("Authorization", "Bearer "+tokens[actor])
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if ctx.Err() == nil {
		t.Fatal("the request's context was not cancelled: the test did not hang up")
	}
	if rec.Code != 200 {
		t.Fatalf("the move: %d %s", rec.Code, rec.Body)
	}
	item, err := d.Load(context.Background(), id)
	if err != nil {
		t.Fatalf("dynalite after the hang-up: %v", err)
	}
	if item.Version != version+1 {
		t.Fatalf("stored version %d, want %d: the move was not saved", item.Version, version+1)
	}
	if v := s.poll(id, tokens[actor]); v.Version != version+1 {
		t.Fatalf("the game after: version %d", v.Version)
	}
}
