//go:build js && wasm

package workerapp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"syscall/js"
	"time"

	"tessera/frontend"
	"tessera/functions/setup"
	"tessera/functions/store/d1"
)

// expireBatch bounds the rows one Cron Trigger run deletes.
const expireBatch = 1000

// Run builds the API from globalThis.tessera.env, publishes the entry
// points, tells the shim it is ready and then waits for calls forever.
func Run() {
	g := js.Global().Get("tessera")
	env := g.Get("env")
	getenv := func(k string) string {
		v := env.Get(k)
		if v.Type() != js.TypeString {
			return ""
		}
		return v.String()
	}
	logger := slog.New(slog.NewJSONHandler(os.Stdout, nil))
	st := d1.New(env.Get("DB"))
	// The Worker vars, read as every deployment reads them (package
	// setup); a Worker cannot refuse to start, so a value it cannot read
	// is logged and its default kept.
	cfg, err := setup.FromEnv(setup.Worker, getenv)
	if err != nil {
		logger.Error("configuration", "err", err.Error())
	}
	// No email on the Worker (docs/email.md): it cannot speak SMTP over a
	// plain socket here, so PUT /api/me/email answers 409 email_off.
	cfg.SMTPAddr, cfg.Mail = "", nil
	var hooks setup.TestHooks
	if testRand != nil {
		hooks.Rand = testRand(getenv)
	}
	a := cfg.TestAPI(st, logger, now, hooks)
	host := cfg.PublicHost
	handler := wrapWithSweep(wrap(a), func(ctx context.Context) (int, error) { return a.Service().Sweep(ctx, host) })

	g.Set("serve", js.FuncOf(func(_ js.Value, args []js.Value) any {
		req := args[0]
		return promise(func() (js.Value, error) { return serve(handler, req) })
	}))
	g.Set("page", js.FuncOf(func(_ js.Value, args []js.Value) any {
		h := http.Header{}
		file, status, body := frontend.Resolve(args[0].String(), args[1].String(), h)
		return js.ValueOf(map[string]any{"file": file, "status": status, "body": body, "headers": headerPairs(h)})
	}))
	g.Set("scheduled", js.FuncOf(func(_ js.Value, args []js.Value) any {
		return promise(func() (js.Value, error) {
			ctx := context.Background()
			swept, err := a.Service().Sweep(ctx, host)
			if err != nil {
				logger.Warn("clock sweep", "err", err)
			}
			expired, err2 := st.Expire(ctx, now(), expireBatch)
			if err2 != nil {
				logger.Warn("expiry", "err", err2)
			}
			if err == nil {
				err = err2
			}
			return js.ValueOf(map[string]any{"swept": swept, "expired": expired}), err
		})
	}))
	g.Call("ready")
	select {}
}

// wrap is the API handler as served; a test build (workercrash) wraps it.
var wrap = func(h http.Handler) http.Handler { return h }

// wrapWithSweep is the handler as served, given the sweep; a test build
// (testclock) routes its clock there. now is the Worker's clock (a test
// build's moves). testRand, set by a test build only, makes the random
// source a fixed stream when the Worker's vars ask for one.
var (
	wrapWithSweep = func(h http.Handler, _ func(ctx context.Context) (int, error)) http.Handler { return h }
	now           = time.Now
	testRand      func(getenv func(string) string) io.Reader
)

// promise runs f on a goroutine of its own (a JS callback must never
// block) and returns a Promise of its result. A panic in f rejects the
// promise; the shim answers 500.
func promise(f func() (js.Value, error)) js.Value {
	return js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer func() {
				if p := recover(); p != nil {
					fmt.Fprintf(os.Stderr, "workerapp: panic: %v\n%s", p, debug.Stack())
					reject.Invoke(js.Global().Get("Error").New(fmt.Sprint("panic: ", p)))
				}
			}()
			v, err := f()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	}))
}

// serve runs one API request. r is what the shim made of the Request:
// {method, url, headers: [[name, value]...], body: Uint8Array, remote}.
// The answer is {status, headers, body: Uint8Array}.
func serve(h http.Handler, r js.Value) (js.Value, error) {
	var body []byte
	if b := r.Get("body"); !b.IsUndefined() && !b.IsNull() {
		body = make([]byte, b.Get("length").Int())
		js.CopyBytesToGo(body, b)
	}
	req, err := http.NewRequestWithContext(context.Background(), r.Get("method").String(), r.Get("url").String(), bytes.NewReader(body))
	if err != nil {
		return js.Undefined(), fmt.Errorf("workerapp: the request: %w", err)
	}
	headers := r.Get("headers")
	for i := range headers.Length() {
		pair := headers.Index(i)
		req.Header.Add(pair.Index(0).String(), pair.Index(1).String())
	}
	req.ContentLength = int64(len(body))
	req.RequestURI = req.URL.RequestURI()
	req.RemoteAddr = net.JoinHostPort(r.Get("remote").String(), "0")
	w := &response{header: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	out := js.Global().Get("Uint8Array").New(w.body.Len())
	js.CopyBytesToJS(out, w.body.Bytes())
	return js.ValueOf(map[string]any{"status": w.status, "headers": headerPairs(w.header), "body": out}), nil
}

// headerPairs lays h out as [[name, value]...] for a JS Headers.
func headerPairs(h http.Header) []any {
	var pairs []any
	for k, vs := range h {
		for _, v := range vs {
			pairs = append(pairs, []any{k, v})
		}
	}
	return pairs
}

// response is a buffered http.ResponseWriter: a Worker answers with the
// whole body at once.
type response struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *response) Header() http.Header { return w.header }

func (w *response) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *response) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

func (w *response) Flush() {}
