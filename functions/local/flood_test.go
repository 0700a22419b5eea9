package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clientFrom is an HTTP client whose connections come from the loopback
// address ip (127.0.0.2 is another address than 127.0.0.1 on Linux).
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: d.DialContext, MaxIdleConnsPerHost: 16}}
}

// floodResult is what one flood run saw.
type floodResult struct {
	created, limited, other int64
	retryAfter              string
	polls                   []time.Duration // the bystander's, sorted
}

func (r floodResult) p(q int) time.Duration {
	if len(r.polls) == 0 {
		return 0
	}
	return r.polls[(len(r.polls)-1)*q/100]
}

// flood runs the server with its default limit; for d (each > 0: for
// each creates apiece instead), `flooders` goroutines from 127.0.0.2
// create games with three hard computer players as fast as they can,
// while a bystander on 127.0.0.1 polls its own game with If-None-Match (a
// 304) every 100 ms (10/s, under the limit of 20; each > 0: 20 polls, as
// fast as it can).
func flood(t testing.TB, d time.Duration, flooders, each int) floodResult {
	var base string
	switch v := t.(type) {
	case *testing.T:
		base, _, _ = inProcess(v, "-data", v.TempDir())
	case *testing.B:
		base = benchServer(v)
	}
	bystander, flooder := clientFrom("127.0.0.1"), clientFrom("127.0.0.2")
	resp, err := bystander.Post(base+"/api/games", "application/json", strings.NewReader(createTwoPlayerGame))
	if err != nil {
		t.Fatal(err)
	}
	var created seatAnswer
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	poll, _ := http.NewRequest("GET", base+"/api/games/"+created.Game.ID, nil)
	poll.Header.Set("Authorization", "Bearer "+created.Token)
	first, err := bystander.Do(poll)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, first.Body)
	first.Body.Close()
	poll.Header.Set("If-None-Match", first.Header.Get("ETag"))

	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var res floodResult
	var mu sync.Mutex
	var wg sync.WaitGroup
	hard := `{"variant":"fiveup","players":4,"name":"F","bots":[{"seat":1,"level":"hard"},{"seat":2,"level":"hard"},{"seat":3,"level":"hard"}]}`
	for range flooders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ctx.Err() == nil && (each == 0 || n < each); n++ {
				req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/games", strings.NewReader(hard))
				r, err := flooder.Do(req)
				if err != nil {
					continue
				}
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
				switch r.StatusCode {
				case http.StatusCreated:
					atomic.AddInt64(&res.created, 1)
				case http.StatusTooManyRequests:
					atomic.AddInt64(&res.limited, 1)
					mu.Lock()
					res.retryAfter = r.Header.Get("Retry-After")
					mu.Unlock()
				default:
					atomic.AddInt64(&res.other, 1)
				}
			}
		}()
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; each > 0 && i < 20 || each == 0 && ctx.Err() == nil; i++ {
		if each == 0 {
			<-tick.C
		}
		t0 := time.Now()
		r, err := bystander.Do(poll)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		if r.StatusCode != http.StatusNotModified {
			t.Fatalf("the bystander's poll: %d, want 304", r.StatusCode)
		}
		res.polls = append(res.polls, time.Since(t0))
	}
	wg.Wait()
	slices.Sort(res.polls)
	return res
}

// frozenClock is a server clock that never moves (a test sets it as
// testClock): the limiter's buckets never refill, so what it lets through
// depends on the requests' count alone, never on how fast a busy machine
// sends them.
type frozenClock struct{ at time.Time }

func (c frozenClock) Now() time.Time { return c.at }
func (c frozenClock) Handler(func(ctx context.Context) (int, error)) http.Handler {
	return http.NotFoundHandler()
}

// TestAFloodIsLimitedAndABystanderIsServed: an address flooding creates
// with hard computer players (4 x 8 at once) gets 429 with Retry-After
// after its burst of 10, and another address's 20 polls all answer 304
// meanwhile. The server's clock (the limiter's) stands still, so the
// counts are exact on any machine however busy. The bystander's latency
// is a measurement (BenchmarkFlood), reported here in the log.
func TestAFloodIsLimitedAndABystanderIsServed(t *testing.T) {
	testClock, testClockPath = frozenClock{time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}, "/api/__test/frozen"
	t.Cleanup(func() { testClock, testClockPath = nil, "" })
	res := flood(t, time.Minute, 4, 8)
	t.Logf("flood: %d created, %d limited, %d other; bystander polls %d, p50 %v p99 %v max %v",
		res.created, res.limited, res.other, len(res.polls), res.p(50), res.p(99), res.p(100))
	if res.limited == 0 || res.retryAfter == "" {
		t.Fatalf("no 429 with Retry-After in a flood (%d limited, Retry-After %q)", res.limited, res.retryAfter)
	}
	// 10 at once and no refill on a clock that stands still; the hard
	// decisions' debt may refuse some of the ten too.
	if res.created > 10 || res.created+res.limited != 32 || res.other != 0 {
		t.Errorf("%d games created (want at most 10), %d limited (want the rest of 32), %d other answers", res.created, res.limited, res.other)
	}
	if len(res.polls) != 20 {
		t.Errorf("the bystander polled %d times, want 20", len(res.polls))
	}
}

// BenchmarkFlood reports the bystander's poll latency during a 10-second
// flood of hard-bot creates from 8 goroutines on another address:
// go test -run XXX -bench Flood -benchtime 1x ./functions/local
func BenchmarkFlood(b *testing.B) {
	for b.Loop() {
		res := flood(b, 10*time.Second, 8, 0)
		b.ReportMetric(float64(res.p(50).Microseconds())/1000, "poll-p50-ms")
		b.ReportMetric(float64(res.p(99).Microseconds())/1000, "poll-p99-ms")
		b.ReportMetric(float64(res.p(100).Microseconds())/1000, "poll-max-ms")
		b.ReportMetric(float64(res.limited), "limited")
		b.ReportMetric(float64(res.created), "created")
	}
}

// benchServer runs the server for a benchmark.
func benchServer(b *testing.B) string {
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-data", b.TempDir()}, func(string) string { return "" }, io.Discard,
			func(addr string) { addrc <- addr })
	}()
	b.Cleanup(func() { cancel(); <-done })
	select {
	case addr := <-addrc:
		return "http://" + addr
	case <-done:
		b.Fatal("server exited")
	}
	return ""
}
