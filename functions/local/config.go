package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// config is everything the server can be told.
type config struct {
	addr              string  // listen address
	dataDir           string  // bbolt directory (when no table is given)
	dynamoTable       string  // DynamoDB table; empty means bbolt
	dynamoEndpoint    string  // DynamoDB endpoint override
	createDynamoTable bool    // create the table if missing (only with an endpoint)
	push              bool    // send Web Push notifications
	pushInsecure      bool    // allow http and loopback push endpoints (tests only)
	pushSubject       string  // VAPID contact; empty: the request's origin
	rateLimit         float64 // API requests per second per address; 0: no limit
}

// DefaultRateLimit is the local server's API requests per second per
// address (docs/ratelimit.md): a page polls about once every 2 s per tab.
const DefaultRateLimit = 20

// parseConfig reads flags from args over environment variables from getenv
// over defaults.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	def := config{addr: ":8080", dataDir: "data", push: true, rateLimit: DefaultRateLimit}
	if port := getenv("PORT"); port != "" {
		if strings.Contains(port, ":") {
			def.addr = port
		} else {
			def.addr = ":" + port
		}
	}
	if dir := getenv("DATA_DIR"); dir != "" {
		def.dataDir = dir
	}
	def.pushInsecure = getenv("PUSH_ALLOW_INSECURE") == "1"
	def.pushSubject = getenv("PUSH_SUBJECT")
	if v := getenv("PUSH"); v == "0" || v == "off" {
		def.push = false
	}
	if v := getenv("RATE_LIMIT"); v != "" {
		r, err := parseRate(v)
		if err != nil {
			return config{}, fmt.Errorf("RATE_LIMIT: %w", err)
		}
		def.rateLimit = r
	}
	def.dynamoTable = getenv("TABLE_NAME")
	def.dynamoEndpoint = getenv("DYNAMODB_ENDPOINT")

	cfg := def
	fs := flag.NewFlagSet("local", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.addr, "addr", def.addr, "listen address (env PORT)")
	fs.StringVar(&cfg.dataDir, "data", def.dataDir, "directory of the bbolt store, created if missing (env DATA_DIR)")
	fs.StringVar(&cfg.dynamoTable, "dynamodb-table", def.dynamoTable, "use this DynamoDB table instead of bbolt (env TABLE_NAME)")
	fs.StringVar(&cfg.dynamoEndpoint, "dynamodb-endpoint", def.dynamoEndpoint, "DynamoDB endpoint, e.g. a local server (env DYNAMODB_ENDPOINT)")
	fs.BoolVar(&cfg.push, "push", def.push, "send Web Push notifications (env PUSH=0 turns them off)")
	fs.BoolVar(&cfg.pushInsecure, "push-allow-insecure", def.pushInsecure, "allow http and loopback push endpoints, for tests only (env PUSH_ALLOW_INSECURE=1)")
	fs.StringVar(&cfg.pushSubject, "push-subject", def.pushSubject, "VAPID contact, mailto: or https: (env PUSH_SUBJECT; default the page's origin)")
	fs.Func("rate-limit", fmt.Sprintf("API requests per second per address, 0 for no limit (env RATE_LIMIT; default %d)", DefaultRateLimit), func(v string) error {
		r, err := parseRate(v)
		cfg.rateLimit = r
		return err
	})
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if cfg.addr == "" {
		return config{}, errors.New("empty listen address")
	}
	if cfg.dynamoTable == "" && cfg.dynamoEndpoint != "" {
		return config{}, errors.New("-dynamodb-endpoint (DYNAMODB_ENDPOINT) needs -dynamodb-table (TABLE_NAME)")
	}
	if cfg.dynamoTable == "" && cfg.dataDir == "" {
		return config{}, errors.New("empty data directory")
	}
	// A local DynamoDB starts empty; on AWS the table belongs to template.yaml.
	cfg.createDynamoTable = cfg.dynamoTable != "" && cfg.dynamoEndpoint != ""
	return cfg, nil
}

// parseRate reads a rate limit: a number of requests per second, 0 or more.
func parseRate(v string) (float64, error) {
	r, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || r < 0 || math.IsInf(r, 0) || math.IsNaN(r) {
		return 0, fmt.Errorf("%q is not a number of requests per second (0 turns the limit off)", v)
	}
	return r, nil
}
