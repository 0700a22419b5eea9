package workertest

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tessera/internal/testenv"
)

// The Worker's cost per request, measured under workerd (miniflare) here:
//
//	go test -run XXX -bench Worker -benchtime 200x ./functions/workertest
//
// ns/op is the wall time of one request on loopback. workerd-cpu-ms/op is
// the CPU time the workerd processes spent per request (user + system,
// from /proc): an upper bound on the Worker's own CPU time, since it also
// counts workerd's HTTP handling and miniflare's local D1 (SQLite in a
// Durable Object), which on Cloudflare are not billed to the Worker.
// Workers' CPU limit (10 ms on the free plan) counts the Worker's own
// JavaScript and wasm only. Run it alone: it reads every workerd's CPU.

// workerdCPU sums the CPU time of every process named workerd.
func workerdCPU(b *testing.B) time.Duration {
	b.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		b.Skip("no /proc: ", err)
	}
	var ticks int64
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < 0 || s[open+1:close] != "workerd" {
			continue
		}
		f := strings.Fields(s[close+2:])
		// utime and stime are fields 14 and 15 of stat; f starts at field 3.
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + st
	}
	return time.Duration(ticks) * (time.Second / 100) // USER_HZ is 100 on Linux
}

func reportCPU(b *testing.B, before time.Duration) {
	b.ReportMetric(float64(workerdCPU(b)-before)/float64(time.Millisecond)/float64(b.N), "workerd-cpu-ms/op")
}

func BenchmarkWorker(b *testing.B) {
	testenv.Miniflare(b)
	build := testenv.WorkerBuild(b, "")

	// The first request of a new isolate: Go's start (instantiating the
	// module, the runtime's init, building the API) and one create.
	b.Run("FirstRequest", func(b *testing.B) {
		var total, cpu time.Duration
		for range b.N {
			b.StopTimer()
			base := testenv.WorkerFrom(b, build)
			time.Sleep(200 * time.Millisecond)
			before := workerdCPU(b)
			b.StartTimer()
			start := time.Now()
			create(b, base, `{"variant": "fiveup", "players": 2, "name": "Ana"}`)
			total += time.Since(start)
			b.StopTimer()
			time.Sleep(50 * time.Millisecond) // let /proc catch up
			cpu += workerdCPU(b) - before
		}
		b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "workerd-cpu-ms/op")
	})

	base := testenv.WorkerFrom(b, build)
	create(b, base, `{"variant": "fiveup", "players": 2, "name": "Warm"}`) // Go is started

	b.Run("Poll304", func(b *testing.B) {
		ana := create(b, base, `{"variant": "fiveup", "players": 4, "name": "Ana", "bots": [{"seat": 1, "level": "easy"}, {"seat": 2, "level": "easy"}, {"seat": 3, "level": "easy"}]}`)
		url := base + "/api/games/" + ana.Game.ID
		etag := do(b, "GET", url, ana.Token, "").header.Get("ETag")
		before := workerdCPU(b)
		b.ResetTimer()
		for range b.N {
			if a := do(b, "GET", url, ana.Token, "", "If-None-Match", etag); a.status != http.StatusNotModified {
				b.Fatalf("poll = %d", a.status)
			}
		}
		b.StopTimer()
		reportCPU(b, before)
	})

	b.Run("Poll200", func(b *testing.B) {
		ana := create(b, base, `{"variant": "fiveup", "players": 4, "name": "Ana", "bots": [{"seat": 1, "level": "easy"}, {"seat": 2, "level": "easy"}, {"seat": 3, "level": "easy"}]}`)
		url := base + "/api/games/" + ana.Game.ID
		before := workerdCPU(b)
		b.ResetTimer()
		for range b.N {
			if a := do(b, "GET", url, ana.Token, ""); a.status != http.StatusOK {
				b.Fatalf("poll = %d", a.status)
			}
		}
		b.StopTimer()
		reportCPU(b, before)
	})

	// A move of the human seat in a four-player game against three
	// computers of one level: the request plays their three replies too.
	for _, level := range []string{"easy", "medium", "hard"} {
		b.Run("MoveWith3"+level, func(b *testing.B) {
			var game seatAnswer
			var mine view
			newGame := func() {
				game = create(b, base, fmt.Sprintf(`{"variant": "fiveup", "players": 4, "name": "Ana", "target": 1000,
					"bots": [{"seat": 1, "level": %[1]q}, {"seat": 2, "level": %[1]q}, {"seat": 3, "level": %[1]q}]}`, level))
				do(b, "GET", base+"/api/games/"+game.Game.ID, game.Token, "").decode(b, "poll", http.StatusOK, &mine)
			}
			newGame()
			var cpu time.Duration
			for i := range b.N {
				if mine.Status == "finished" {
					b.StopTimer()
					newGame()
					b.StartTimer()
				}
				before := workerdCPU(b)
				a := do(b, "POST", base+"/api/games/"+game.Game.ID+"/moves", game.Token, nextMove(b, mine, fmt.Sprint("b", i)))
				cpu += workerdCPU(b) - before
				a.decode(b, "move", http.StatusOK, &mine)
			}
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "workerd-cpu-ms/op")
		})
	}
}
