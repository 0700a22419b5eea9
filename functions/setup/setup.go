// Package setup is the one place where a deployment's settings are read
// (environment variables, and on the local server flags over them) and the
// one constructor of the API over a store that the Lambda mains, the local
// server and the Worker share. Each main opens its own store (DynamoDB,
// bbolt, D1) and passes it in; so no binary links another's store.
package setup

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	"tessera/functions/api"
	"tessera/functions/mail"
	"tessera/functions/store"
)

// The environment variables every deployment reads (README.md).
const (
	EnvPort         = "PORT"                  // local: listen port or address
	EnvDataDir      = "DATA_DIR"              // local: bbolt directory
	EnvTable        = "TABLE_NAME"            // DynamoDB table
	EnvEndpoint     = "DYNAMODB_ENDPOINT"     // DynamoDB endpoint override
	EnvPush         = "PUSH"                  // "0" or "off" turns Web Push off
	EnvPushInsecure = "PUSH_ALLOW_INSECURE"   // "1" allows http and loopback push endpoints (tests only)
	EnvPushSubject  = "PUSH_SUBJECT"          // VAPID contact, mailto: or https:
	EnvRateLimit    = "RATE_LIMIT"            // API requests per second per address; 0: no limit
	EnvHost         = "PUBLIC_HOST"           // the site's host name, for pushes a scheduled sweep sends
	EnvPublicURL    = "PUBLIC_URL"            // local: the address friends open (pages asked for at another are sent there)
	EnvOperator     = "OPERATOR_TOKEN"        // the moderators' token (docs/moderation.md); unset: no moderation routes
	EnvSMTP         = "SMTP_ADDR"             // local: the SMTP server (host:port) mail goes through; unset: email off
	EnvMailFrom     = "MAIL_FROM"             // the mails' sender, e.g. "Tessera <tessera@example.org>"
	EnvDigestAfter  = "DIGEST_AFTER"          // how long a turn waits before a digest mail (a Go duration, e.g. 24h)
	EnvSESConfigSet = "SES_CONFIGURATION_SET" // AWS: the SES configuration set whose bounces and complaints come back through SNS
)

// DefaultMailFrom is the sender when MAIL_FROM is not given.
const DefaultMailFrom = "Tessera <tessera@localhost>"

// Config is every setting of every deployment.
type Config struct {
	Addr              string        // local: listen address
	DataDir           string        // local: bbolt directory (when no table is given)
	DynamoTable       string        // DynamoDB table; empty means bbolt (local)
	DynamoEndpoint    string        // DynamoDB endpoint override
	CreateDynamoTable bool          // create the table if missing (only with an endpoint)
	Push              bool          // send Web Push notifications
	PushInsecure      bool          // allow http and loopback push endpoints (tests only)
	PushSubject       string        // VAPID contact; empty: the request's origin
	PublicHost        string        // the site's host for pushes sent outside a request
	RateLimit         float64       // API requests per second per address; 0: no limit
	PublicURL         string        // local: the site's address for friends, "" for none (scheme and host only)
	OperatorToken     string        // the moderators' bearer token; "" turns the moderation routes off (404)
	SMTPAddr          string        // local: the SMTP server; "" email off
	MailFrom          string        // the mails' sender
	DigestAfter       time.Duration // how long a turn waits before a digest; 0: 24 h
	SESConfigSet      string        // AWS: the SES configuration set of the mails
	// Mail is the mail sender the main made itself (the local server's
	// SMTP from SMTPAddr and MailFrom, the Lambda functions' SES); nil:
	// email off. So only the binaries that mail link a transport.
	Mail mail.Sender
}

// DefaultRateLimit is the API requests per second per address where the
// deployment limits them itself (docs/ratelimit.md): a page polls about
// once every 2 s per tab.
const DefaultRateLimit = 20

// The defaults of each deployment, before the environment.
var (
	// Local is the local server's: port 8080, ./data, push on, the limit.
	Local = Config{Addr: ":8080", DataDir: "data", Push: true, RateLimit: DefaultRateLimit}
	// Lambda is the Lambda functions': push on; API Gateway throttles, so
	// no limit in the function.
	Lambda = Config{Push: true}
	// Worker is the Worker's: push on, the limit (per isolate).
	Worker = Config{Push: true, RateLimit: DefaultRateLimit}
)

// FromEnv reads the environment through getenv over def. A value that
// cannot be read is an error naming it (the config returned then holds
// def's value for it).
func FromEnv(def Config, getenv func(string) string) (Config, error) {
	cfg := def
	if port := getenv(EnvPort); port != "" {
		if strings.Contains(port, ":") {
			cfg.Addr = port
		} else {
			cfg.Addr = ":" + port
		}
	}
	if dir := getenv(EnvDataDir); dir != "" {
		cfg.DataDir = dir
	}
	cfg.DynamoTable = getenv(EnvTable)
	cfg.DynamoEndpoint = getenv(EnvEndpoint)
	if v := getenv(EnvPush); v == "0" || v == "off" {
		cfg.Push = false
	}
	cfg.PushInsecure = getenv(EnvPushInsecure) == "1"
	cfg.PushSubject = getenv(EnvPushSubject)
	cfg.PublicHost = getenv(EnvHost)
	cfg.PublicURL = getenv(EnvPublicURL)
	cfg.OperatorToken = getenv(EnvOperator)
	cfg.SMTPAddr = getenv(EnvSMTP)
	cfg.SESConfigSet = getenv(EnvSESConfigSet)
	if v := getenv(EnvMailFrom); v != "" {
		cfg.MailFrom = v
	}
	var err error
	if v := getenv(EnvDigestAfter); v != "" {
		d, derr := ParseDigestAfter(v)
		if derr != nil {
			err = fmt.Errorf("%s: %w", EnvDigestAfter, derr)
		} else {
			cfg.DigestAfter = d
		}
	}
	if v := getenv(EnvRateLimit); v != "" {
		r, rerr := ParseRate(v)
		if rerr != nil {
			err = errors.Join(err, fmt.Errorf("%s: %w", EnvRateLimit, rerr))
		} else {
			cfg.RateLimit = r
		}
	}
	return cfg, err
}

// Parse is the local server's configuration: Local, then the environment,
// then the flags in args; it refuses what cannot work.
func Parse(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	def, err := FromEnv(Local, getenv)
	if err != nil {
		return Config{}, err
	}
	cfg := def
	fs := flag.NewFlagSet("local", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Addr, "addr", def.Addr, "listen address (env PORT)")
	fs.StringVar(&cfg.DataDir, "data", def.DataDir, "directory of the bbolt store, created if missing (env DATA_DIR)")
	fs.StringVar(&cfg.DynamoTable, "dynamodb-table", def.DynamoTable, "use this DynamoDB table instead of bbolt (env TABLE_NAME)")
	fs.StringVar(&cfg.DynamoEndpoint, "dynamodb-endpoint", def.DynamoEndpoint, "DynamoDB endpoint, e.g. a local server (env DYNAMODB_ENDPOINT)")
	fs.BoolVar(&cfg.Push, "push", def.Push, "send Web Push notifications (env PUSH=0 turns them off)")
	fs.BoolVar(&cfg.PushInsecure, "push-allow-insecure", def.PushInsecure, "allow http and loopback push endpoints, for tests only (env PUSH_ALLOW_INSECURE=1)")
	fs.StringVar(&cfg.PushSubject, "push-subject", def.PushSubject, "VAPID contact, mailto: or https: (env PUSH_SUBJECT; default the page's origin)")
	fs.StringVar(&cfg.PublicURL, "public-url", def.PublicURL, "the address friends open, e.g. http://192.168.1.20:8080: pages asked for at another address are sent there, so invite links carry it (env PUBLIC_URL)")
	fs.Func("rate-limit", fmt.Sprintf("API requests per second per address, 0 for no limit (env RATE_LIMIT; default %d)", DefaultRateLimit), func(v string) error {
		r, err := ParseRate(v)
		cfg.RateLimit = r
		return err
	})
	fs.StringVar(&cfg.SMTPAddr, "smtp", cfg.SMTPAddr, "send mail (address confirmations, the digest) through this SMTP server, host:port (env SMTP_ADDR; unset: email off)")
	fs.StringVar(&cfg.MailFrom, "mail-from", cfg.MailFrom, "the mails' sender (env MAIL_FROM; default "+DefaultMailFrom+")")
	fs.Func("digest-after", "how long a turn waits before a digest mail, e.g. 24h or 86400 seconds (env DIGEST_AFTER; default 24h)", func(v string) error {
		d, err := ParseDigestAfter(v)
		cfg.DigestAfter = d
		return err
	})
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if cfg.SMTPAddr != "" {
		if _, _, err := net.SplitHostPort(cfg.SMTPAddr); err != nil {
			return Config{}, fmt.Errorf("-smtp (SMTP_ADDR) %q: want host:port", cfg.SMTPAddr)
		}
	}
	if cfg.MailFrom != "" {
		if _, err := netmail.ParseAddress(cfg.MailFrom); err != nil {
			return Config{}, fmt.Errorf("-mail-from (MAIL_FROM) %q: %v", cfg.MailFrom, err)
		}
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if cfg.Addr == "" {
		return Config{}, errors.New("empty listen address")
	}
	if cfg.DynamoTable == "" && cfg.DynamoEndpoint != "" {
		return Config{}, errors.New("-dynamodb-endpoint (DYNAMODB_ENDPOINT) needs -dynamodb-table (TABLE_NAME)")
	}
	if cfg.DynamoTable == "" && cfg.DataDir == "" {
		return Config{}, errors.New("empty data directory")
	}
	if cfg.PublicURL != "" {
		u, err := url.Parse(cfg.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return Config{}, fmt.Errorf("-public-url (PUBLIC_URL) %q: want http:// or https:// and a host, nothing after it", cfg.PublicURL)
		}
		cfg.PublicURL = u.Scheme + "://" + u.Host
		if cfg.PublicHost == "" {
			cfg.PublicHost = u.Host
		}
		if cfg.PushSubject == "" {
			// The one public origin signs pushes too, never a request's
			// Host header (VAPID wants an https: or mailto: contact).
			cfg.PushSubject = "https://" + u.Host
		}
	}
	// A local DynamoDB starts empty; on AWS the table belongs to template.yaml.
	cfg.CreateDynamoTable = cfg.DynamoTable != "" && cfg.DynamoEndpoint != ""
	return cfg, nil
}

// ParseDigestAfter reads DIGEST_AFTER: a Go duration (24h, 90m) or a
// whole number of seconds (86400), a second or more.
func ParseDigestAfter(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	d, err := time.ParseDuration(v)
	if n, nerr := strconv.ParseInt(v, 10, 64); nerr == nil && n > 0 && n < 1<<32 {
		d, err = time.Duration(n)*time.Second, nil
	}
	if err != nil || d < time.Second {
		return 0, fmt.Errorf("%q is not a duration of a second or more, like 24h or 86400 (seconds)", v)
	}
	return d, nil
}

// ParseRate reads a rate limit: a number of requests per second, 0 or more.
func ParseRate(v string) (float64, error) {
	r, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || r < 0 || math.IsInf(r, 0) || math.IsNaN(r) {
		return 0, fmt.Errorf("%q is not a number of requests per second (0 turns the limit off)", v)
	}
	return r, nil
}

// API is the one constructor of the API every deployment serves: over st,
// as cfg says, logging to logger, on the clock now (nil: time.Now).
func (cfg Config) API(st store.Store, logger *slog.Logger, now func() time.Time) *api.Handler {
	return cfg.TestAPI(st, logger, now, TestHooks{})
}

// TestHooks are what only a test build sets (functions/local/testclock.go);
// zero in every other build.
type TestHooks struct {
	AfterEnd func(gameID string) // game.Config.AfterEnd: a crash point
	Rand     io.Reader           // game.Config.Rand: a fixed stream, so deals repeat
}

// TestAPI is API with a test build's hooks.
func (cfg Config) TestAPI(st store.Store, logger *slog.Logger, now func() time.Time, hooks TestHooks) *api.Handler {
	ac := api.Config{Store: st, Logger: logger, Now: now, AfterEnd: hooks.AfterEnd, Rand: hooks.Rand, OperatorToken: cfg.OperatorToken}
	if cfg.RateLimit > 0 {
		ac.RateLimit = &api.RateLimit{PerSecond: cfg.RateLimit, Now: now} // the deployment's clock (a test's, in a test)
	}
	if cfg.Push {
		ac.Push = &api.PushConfig{Insecure: cfg.PushInsecure, Subject: cfg.PushSubject}
	}
	ac.Mail = cfg.Mail
	ac.DigestAfter = cfg.DigestAfter
	return api.New(ac)
}
