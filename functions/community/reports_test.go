package community

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/functions/game"
	"tessera/functions/store"
	"tessera/functions/store/memory"
)

// queueAll pages through the whole moderation queue, oldest first.
func queueAll(t *testing.T, svc *world) []*Report {
	t.Helper()
	var all []*Report
	after := ""
	for pages := 0; ; pages++ {
		if pages > 20 {
			t.Fatal("the queue never ends")
		}
		q, next, err := svc.com.Queue(t.Context(), after)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, q...)
		if next == "" {
			return all
		}
		after = next
	}
}

// TestAFloodOfReportsHidesNoOlderOne (issue 43): fresh keys from a few
// addresses flood the queue; each address gets its day's 20, no player
// gets more than 100 open reports, the report filed first is the first
// the operator reads, and paging reaches every open report, oldest first.
// Closing one makes room for the next report about that player.
func TestAFloodOfReportsHidesNoOlderOne(t *testing.T) {
	w := newPathWorld(t, memory.New())
	svc := w.service(nil)
	ctx := t.Context()
	ana, bea, zed := pathKey("ana"), pathKey("bea"), pathKey("zed")
	ids := named(t, svc, map[string]string{ana: "Ana", bea: "Bea", zed: "Zed"})
	// A report from before the queue was paged (its list ranked newest
	// highest): still read, first.
	old := &Report{ID: "oldreport0000000", At: w.clock.Now().Add(-time.Hour).UTC().Truncate(time.Second), By: ids[ana], Player: ids[zed], Name: "Zed", What: ReportName}
	b, err := game.EncodeJSONItem(reportFormat, old)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.st.CreateListed(ctx, ReportItemID(old.ID), b, old.At, time.Time{}, old.At.Add(reportOpenTTL),
		store.Entry{List: legacyQueueList, Rank: old.At.Format("20060102150405") + old.ID, Card: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	first, _, err := svc.com.File(ctx, game.HashToken(ana), "192.0.2.1", ReportRequest{Player: ids[zed], What: ReportPlayer, Note: "insults at table 4"})
	if err != nil {
		t.Fatal(err)
	}
	// 30 fresh keys on 6 addresses, 5 reports each about Bea (each with
	// its own note, so each is a report of its own).
	made, refusedAddr, refusedFull := 0, 0, 0
	for k := range 30 {
		w.clock.Add(time.Second)
		key := pathKey(fmt.Sprintf("flood%02d", k))
		named(t, svc, map[string]string{key: fmt.Sprintf("Flood %d", k)})
		addr := fmt.Sprintf("198.51.100.%d", k%6)
		for n := range 5 {
			_, _, err := svc.com.File(ctx, game.HashToken(key), addr, ReportRequest{Player: ids[bea], What: ReportName, Note: fmt.Sprintf("flood %d/%d", k, n)})
			switch {
			case err == nil:
				made++
			case errors.Is(err, game.ErrLimitReached) && strings.Contains(err.Error(), "one address"):
				refusedAddr++
			case errors.Is(err, game.ErrLimitReached) && strings.Contains(err.Error(), "waiting for the moderators"):
				refusedFull++
			default:
				t.Fatalf("flood report %d/%d: %v", k, n, err)
			}
		}
	}
	// Six addresses, 20 a day each: 120 allowed by address, but Bea holds
	// at most 100 open reports.
	if made != MaxReportRefs || refusedAddr != 150-120 || refusedFull != 120-MaxReportRefs {
		t.Errorf("flood: %d made, %d refused by address, %d by a full list; want %d, %d, %d", made, refusedAddr, refusedFull, MaxReportRefs, 30, 20)
	}
	all := queueAll(t, svc)
	if len(all) != 2+MaxReportRefs {
		t.Fatalf("the queue holds %d reports through its pages, want %d", len(all), 2+MaxReportRefs)
	}
	if all[0].ID != old.ID || all[1].ID != first.ID || all[1].Note != "insults at table 4" {
		t.Errorf("the first reports the operator reads are %s and %+v, want the old one and the one filed first", all[0].ID, all[1])
	}
	seen := map[string]bool{}
	for i, r := range all {
		if seen[r.ID] {
			t.Errorf("report %s twice in the queue", r.ID)
		}
		seen[r.ID] = true
		if i > 0 && r.At.Before(all[i-1].At) {
			t.Errorf("report %d at %v after one at %v: not oldest first", i, r.At, all[i-1].At)
		}
	}
	// The address's day ends: a new key there may report again, but Bea's
	// list is full until the operator closes one.
	w.clock.Add(24 * time.Hour)
	late := pathKey("late")
	named(t, svc, map[string]string{late: "Late"})
	req := ReportRequest{Player: ids[bea], What: ReportName, Note: "late"}
	if _, _, err := svc.com.File(ctx, game.HashToken(late), "203.0.113.9", req); !errors.Is(err, game.ErrLimitReached) {
		t.Fatalf("a report about a player with %d open: %v, want limit_reached", MaxReportRefs, err)
	}
	if err := svc.com.Close(ctx, all[2].ID); err != nil {
		t.Fatal(err)
	}
	if _, made, err := svc.com.File(ctx, game.HashToken(late), "203.0.113.9", req); err != nil || !made {
		t.Fatalf("a report after the operator closed one: made %v, %v", made, err)
	}
	if _, err := w.st.Load(ctx, ReportItemID(all[2].ID)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the closed report that made room: %v, want it gone (forgetting must reach every report kept)", err)
	}
	// Bea asks to be forgotten: every report about her that is kept loses
	// her name and the notes (before, the reports past the last 100 kept
	// them).
	if err := svc.com.Forget(ctx, pathOp, game.HashToken(bea)); err != nil {
		t.Fatal(err)
	}
	about := 0
	for _, r := range queueAll(t, svc) {
		if r.Player != ids[bea] {
			continue
		}
		about++
		if r.Name != ForgottenName || r.Note != "" {
			t.Errorf("a report about the forgotten Bea keeps name %q, note %q", r.Name, r.Note)
		}
	}
	if about != MaxReportRefs {
		t.Errorf("%d reports about Bea in the queue, want %d", about, MaxReportRefs)
	}
	if _, _, err := svc.com.Queue(ctx, "bad cursor"); err == nil {
		t.Error("a cursor with a space: no error")
	}
}

// TestAnAddressDayHoldsUnderARace: 30 reports from 30 keys of one
// address at once make exactly 20, on every store (the address's count
// is one item written at its next version, retried).
func TestAnAddressDayHoldsUnderARace(t *testing.T) {
	eachStore(t, func(t *testing.T, st store.Store) {
		w := newPathWorld(t, st)
		svc := w.service(nil)
		ctx := t.Context()
		zed := pathKey("zed")
		names := map[string]string{zed: "Zed"}
		keys := make([]string, 30)
		for i := range keys {
			keys[i] = pathKey(fmt.Sprintf("racer%02d", i))
			names[keys[i]] = fmt.Sprintf("Racer %d", i)
		}
		ids := named(t, svc, names)
		var wg sync.WaitGroup
		errs := make([]error, len(keys))
		for i, k := range keys {
			wg.Go(func() {
				_, _, errs[i] = svc.com.File(ctx, game.HashToken(k), "2001:db8::1", ReportRequest{Player: ids[zed], What: ReportName, Note: k})
			})
		}
		wg.Wait()
		made := 0
		for _, err := range errs {
			switch {
			case err == nil:
				made++
			case !errors.Is(err, game.ErrLimitReached):
				t.Errorf("a report: %v", err)
			}
		}
		if made != ReportsPerAddress {
			t.Errorf("%d reports made from one address at once, want %d", made, ReportsPerAddress)
		}
	})
}
