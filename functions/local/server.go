package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tessera/frontend"
	"tessera/functions/api"
	"tessera/functions/mail/smtpmail"
	"tessera/functions/setup"
	"tessera/functions/store"
	"tessera/functions/store/bolt"
	"tessera/functions/store/dynamo"
)

// Server limits. The API reads small bodies (at most 16 KiB) and answers
// quickly; the limits only bound slow or idle clients.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 2 * time.Minute
	MaxHeaderBytes    = 64 << 10
	// ShutdownTimeout bounds how long a stopping server waits for the
	// requests in flight.
	ShutdownTimeout = 20 * time.Second
)

// boltFile is the name of the bbolt file inside the data directory.
const boltFile = "tessera.db"

// openStore opens the store cfg describes and returns it with its closer.
func openStore(ctx context.Context, cfg setup.Config, logger *slog.Logger) (store.Store, func() error, error) {
	if cfg.DynamoTable != "" {
		d, err := dynamo.NewFromConfig(ctx, cfg.DynamoTable, cfg.DynamoEndpoint)
		if err != nil {
			return nil, nil, err
		}
		if cfg.CreateDynamoTable {
			if err := d.CreateTable(ctx); err != nil {
				return nil, nil, err
			}
		}
		logger.Info("store", "kind", "dynamodb", "table", cfg.DynamoTable, "endpoint", cfg.DynamoEndpoint)
		return d, func() error { return nil }, nil
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("create data directory: %w", err)
	}
	path := filepath.Join(cfg.DataDir, boltFile)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // the first log line says where the games are, wherever the server was started
	}
	b, err := bolt.Open(path)
	if err != nil {
		return nil, nil, err
	}
	logger.Info("store", "kind", "bbolt", "path", path)
	return b, b.Close, nil
}

// SweepEvery is how often the clock sweeper looks for due games (API.md:
// a deadline is enforced within 2 minutes, even if nobody looks).
const SweepEvery = 10 * time.Second

// testClock is set in a test build only (testclock.go): the server's
// clock then moves when a test says (POST /api/__test/clock).
var testClock interface {
	Now() time.Time
	Handler(after func(ctx context.Context) (int, error)) http.Handler
}

// testClockPath is where a test build's clock answers.
var testClockPath string

// testHooks are set in a test build only (testclock.go): a crash point
// after a match's end is saved, and a fixed random stream.
var testHooks setup.TestHooks

// now is the server's clock.
func now() time.Time {
	if testClock != nil {
		return testClock.Now()
	}
	return time.Now()
}

// newHandler routes /api and everything under /api/ to the API, as the
// client sent the path, and everything else to the page. No ServeMux sits
// in front of the API: it would answer "/api//games", "/api/x/../games"
// and "/api" with a redirect, where API.md wants a 404 not_found. The API
// logs each of its requests itself (with its route, game and outcome); the
// page's requests are logged here, so every request has one line.
//
// With publicURL (-public-url, PUBLIC_URL), a page asked for at another
// address (http://localhost:8080/ on the host's own browser) is sent to
// that address, so the links the page makes (the invite link, seat links)
// are ones friends can open. The API answers at any address.
func newHandler(a *api.Handler, logger *slog.Logger, publicURL string) http.Handler {
	page := logRequests(logger, frontend.Handler())
	public := ""
	if u, err := url.Parse(publicURL); err == nil && publicURL != "" {
		public = u.Host
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "PRI" {
			// HTTP/2's connection preface on a cleartext HTTP/1 server
			// (no h2c here): not a page to answer 404 for (attack kit).
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if p := r.URL.EscapedPath(); p == "/api" || strings.HasPrefix(p, "/api/") {
			a.ServeHTTP(w, r)
			return
		}
		if public != "" && !strings.EqualFold(r.Host, public) && (r.Method == http.MethodGet || r.Method == http.MethodHead) && isPage(r.URL.Path) {
			http.Redirect(w, r, publicURL+r.URL.RequestURI(), http.StatusFound)
			return
		}
		page.ServeHTTP(w, r)
	})
}

// isPage: a path a person opens (not a file a page loads).
func isPage(p string) bool {
	return p == "/" || p == "/index.html" || p == "/rules" || strings.HasPrefix(p, "/g/")
}

// ExpireEvery is how often the bbolt store deletes the games past their
// TTL (store.TTL after the last write, as DynamoDB's TTL does on AWS);
// expireBatch bounds one write transaction.
const (
	ExpireEvery = time.Hour
	expireBatch = 1000
)

// expirer is a store that deletes expired items itself (bbolt).
type expirer interface {
	Expire(ctx context.Context, now time.Time, limit int) (int, error)
}

// expire deletes the store's expired items, a batch at a time.
func expire(ctx context.Context, st store.Store, logger *slog.Logger) {
	e, ok := st.(expirer)
	if !ok {
		return
	}
	total := 0
	for ctx.Err() == nil {
		n, err := e.Expire(ctx, now(), expireBatch)
		if err != nil {
			if ctx.Err() == nil {
				logger.Warn("expiry", "err", err)
			}
			return
		}
		total += n
		if n < expireBatch {
			break
		}
	}
	if total > 0 {
		logger.Info("expiry", "deleted", total)
	}
}

// sweep runs the clock sweeper every SweepEvery, and the expiry at once and
// every ExpireEvery, until ctx is done.
func sweep(ctx context.Context, a *api.Handler, st store.Store, host string, logger *slog.Logger) {
	t := time.NewTicker(SweepEvery)
	defer t.Stop()
	expire(ctx, st, logger)
	lastExpiry := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if time.Since(lastExpiry) >= ExpireEvery {
				expire(ctx, st, logger)
				lastExpiry = time.Now()
			}
			if n, err := a.Service().Sweep(ctx, host); err != nil && ctx.Err() == nil {
				logger.Warn("clock sweep", "err", err)
			} else if n > 0 {
				logger.Info("clock sweep", "games", n)
			}
		}
	}
}

// run is the whole program; it returns the exit status. ready, if not nil,
// is called with the listening address once connections are accepted.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer, ready func(addr string)) int {
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	cfg, err := setup.Parse(args, getenv, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		logger.Error("configuration", "err", err)
		return 2
	}
	if err := serve(ctx, cfg, logger, ready); err != nil {
		logger.Error("server", "err", err)
		return 1
	}
	return 0
}

// serve runs the server until ctx is cancelled, then shuts it down
// gracefully and closes the store.
func serve(ctx context.Context, cfg setup.Config, logger *slog.Logger, ready func(addr string)) (err error) {
	st, closeStore, err := openStore(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := closeStore(); cerr != nil && err == nil {
			err = fmt.Errorf("close store: %w", cerr)
		}
		if err == nil {
			logger.Info("stopped")
		}
	}()

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	if cfg.SMTPAddr != "" {
		from := cfg.MailFrom
		if from == "" {
			from = setup.DefaultMailFrom
		}
		cfg.Mail = smtpmail.SMTP{Addr: cfg.SMTPAddr, From: from, Now: now}
		logger.Info("email on", "smtp", cfg.SMTPAddr)
	}
	a := cfg.TestAPI(st, logger, now, testHooks)
	handler := newHandler(a, logger, cfg.PublicURL)
	if testClock != nil {
		host := displayAddr(ln.Addr())
		mux := http.NewServeMux()
		mux.Handle("POST "+testClockPath, testClock.Handler(func(ctx context.Context) (int, error) { return a.Service().Sweep(ctx, host) }))
		mux.Handle("/", handler)
		handler = mux
		logger.Warn("test build: POST /api/__test/clock moves the clock")
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// The sweeper stops with ctx, before the store closes.
	sweepCtx, stopSweep := context.WithCancel(ctx)
	swept := make(chan struct{})
	go func() { defer close(swept); sweep(sweepCtx, a, st, displayAddr(ln.Addr()), logger) }()
	defer func() { stopSweep(); <-swept }()
	site := "http://" + displayAddr(ln.Addr())
	if cfg.PublicURL != "" {
		site = cfg.PublicURL // where friends open it (-public-url)
	}
	logger.Info("listening", "addr", ln.Addr().String(), "url", site)
	if ready != nil {
		ready(ln.Addr().String())
	}

	select {
	case err := <-served:
		return err // the listener failed; nothing is in flight
	case <-ctx.Done():
	}
	logger.Info("shutting down", "timeout", ShutdownTimeout.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// displayAddr makes a wildcard listen address clickable.
func displayAddr(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return a.String()
	}
	return net.JoinHostPort("localhost", fmt.Sprint(tcp.Port))
}
