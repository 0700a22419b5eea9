//go:build js && wasm && workercrash

package workerapp

import (
	"net/http"
	"time"
)

// A test build only (make worker-build WORKER_TAGS=workercrash): POST
// /api/__crash makes the Go program die as an unrecovered panic does (on a
// goroutine of its own, outside any request), while that request waits.
// functions/workertest checks that the request in flight answers 500 and
// the next request is served by a new instance.
func init() {
	wrap = func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == "/api/__crash" {
				go panic("workercrash: the crash a test asked for")
				time.Sleep(time.Hour)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
}
