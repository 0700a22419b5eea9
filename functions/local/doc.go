// Command local is Tessera as one program, for a laptop or a small server:
// the HTTP API under /api/ (package api) and the web page everywhere else
// (package frontend), over the embedded bbolt store in ./data by default.
//
//	go run ./functions/local            # http://localhost:8080
//
// Every setting is a flag or an environment variable (the flag wins):
//
//	-addr               PORT               listen address (":8080"; PORT=9000 means ":9000")
//	-data               DATA_DIR           directory of the bbolt file ("data", created if missing)
//	-dynamodb-table     TABLE_NAME         use this DynamoDB table instead of bbolt
//	-dynamodb-endpoint  DYNAMODB_ENDPOINT  DynamoDB endpoint (a local server); the table
//	                                       is created there if it does not exist
//	-rate-limit         RATE_LIMIT         API requests per second per address (20; 0: no limit)
//	-push               PUSH               send Web Push notifications (on; PUSH=0 turns them off)
//	-push-allow-insecure PUSH_ALLOW_INSECURE=1  allow http and loopback push endpoints (tests only)
//	-push-subject       PUSH_SUBJECT       VAPID contact (default: the page's origin)
//	                    OPERATOR_TOKEN     the moderators' bearer token (environment only, so
//	                                       it is in no command line; unset: no moderation
//	                                       routes; docs/moderation.md)
//
// Logs are text (log/slog) on stderr, one line per request (for /api/ the
// API's own line, with its route and outcome). On SIGINT or SIGTERM the
// server stops accepting connections, lets the requests in flight finish (up
// to ShutdownTimeout), and then closes the store.
package main
