//go:build linux

package lambdatest

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"testing"
	"time"

	"tessera/functions/store/dynamo"
	"tessera/internal/testenv"
)

// BenchmarkColdStart measures, per iteration, a cold start under the
// Runtime Interface Emulator: from starting the emulator (which execs the
// bootstrap on the first invocation) to the first answer. "tessera" is the
// State function answering a poll for a game that does not exist (one
// GetItem against dynalite); "hello" is the smallest aws-lambda-go function,
// built the same way. Besides ns/op it reports the bootstrap's init time as
// the emulator logs it, and the size of the deployed (linux/arm64) binary.
//
//	go test ./functions/lambdatest -run '^$' -bench ColdStart -benchtime 10x
func BenchmarkColdStart(b *testing.B) {
	b.Run("tessera", func(b *testing.B) {
		endpoint := testenv.Dynalite(b)
		table := testenv.TableName(b)
		st, err := dynamo.NewFromConfig(context.Background(), table, endpoint)
		if err != nil {
			b.Fatal(err)
		}
		if err := st.CreateTable(context.Background()); err != nil {
			b.Fatal(err)
		}
		payload, _ := json.Marshal(apiEvent("GET /api/games/{id}", "GET", "/api/games/doesnotexist00", nil, ""))
		coldStarts(b, nativeBootstrap(b, "StateFunction"), payload, "TABLE_NAME="+table, "DYNAMODB_ENDPOINT="+endpoint)
		reportSize(b, makeBootstrap(b, "build-StateFunction", "arm64"))
	})
	b.Run("hello", func(b *testing.B) {
		payload, _ := json.Marshal(apiEvent("GET /hello", "GET", "/hello", nil, ""))
		coldStarts(b, helloBootstrap(b, runtime.GOARCH), payload)
		reportSize(b, helloBootstrap(b, "arm64"))
	})
}

func coldStarts(b *testing.B, bootstrap string, payload []byte, env ...string) {
	rieBinary(b) // build outside the timed part
	var initTotal float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := startEmulated(b, "bench", bootstrap, env...)
		e.invokeRaw(b, payload)
		b.StopTimer()
		ms, ok := e.initMillis()
		if !ok {
			// The report line may trail the answer by a moment.
			time.Sleep(50 * time.Millisecond)
			ms, _ = e.initMillis()
		}
		initTotal += ms
		e.stop()
		b.StartTimer()
	}
	b.ReportMetric(initTotal/float64(b.N), "init-ms/op")
}

func reportSize(b *testing.B, path string) {
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(info.Size())/1e6, "arm64-MB")
}
