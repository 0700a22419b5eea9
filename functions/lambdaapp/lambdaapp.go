package lambdaapp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"tessera/functions/api"
	"tessera/functions/mail"
	"tessera/functions/mail/sesmail"
	"tessera/functions/setup"
	"tessera/functions/store/dynamo"
)

// ErrNoTable is returned by ConfigFromEnv when TABLE_NAME is unset or empty.
var ErrNoTable = errors.New("lambdaapp: " + setup.EnvTable + " is not set")

// ConfigFromEnv reads a function's configuration through getenv (os.Getenv
// in Run): the deployments' one reading (package setup) over the Lambda
// defaults; the table is required.
func ConfigFromEnv(getenv func(string) string) (setup.Config, error) {
	cfg, err := setup.FromEnv(setup.Lambda, getenv)
	if err != nil {
		return setup.Config{}, err
	}
	if cfg.DynamoTable == "" {
		return setup.Config{}, ErrNoTable
	}
	return cfg, nil
}

// NewLogger returns the JSON logger the functions write to stdout, where
// Lambda forwards it to CloudWatch Logs.
func NewLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, nil))
}

// NewHandler opens the DynamoDB store described by cfg and returns the API
// handler over it.
func NewHandler(ctx context.Context, cfg setup.Config, logger *slog.Logger) (*api.Handler, error) {
	st, err := dynamo.NewForLambda(cfg.DynamoTable, cfg.DynamoEndpoint)
	if err != nil {
		return nil, fmt.Errorf("lambdaapp: open dynamodb store: %w", err)
	}
	if cfg.MailFrom != "" && cfg.SMTPAddr == "" && cfg.Mail == nil {
		// The stack's sender (template.yaml MailFrom): mail through SES.
		awsCfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, fmt.Errorf("lambdaapp: aws config for SES: %w", err)
		}
		cfg.Mail = sesmail.SES{Client: sesv2.NewFromConfig(awsCfg), From: cfg.MailFrom, ConfigurationSet: cfg.SESConfigSet}
	}
	return cfg.API(st, logger, nil), nil
}

// snsEvent is what SNS invokes a function with (the clock function hears
// SES's bounces and complaints so).
type snsEvent struct {
	Records []struct {
		EventSource string `json:"EventSource"`
		Sns         struct {
			Message string `json:"Message"`
		} `json:"Sns"`
	} `json:"Records"`
}

// MailEvents suppresses the addresses of SES's permanent bounces and
// complaints in an SNS invocation (docs/email.md); ok false when raw is
// not one (the schedule's invocation).
func MailEvents(ctx context.Context, svc interface {
	Suppress(context.Context, string) error
}, raw json.RawMessage, logger *slog.Logger) (n int, ok bool, err error) {
	var e snsEvent
	if json.Unmarshal(raw, &e) != nil || len(e.Records) == 0 || e.Records[0].EventSource != "aws:sns" {
		return 0, false, nil
	}
	for _, r := range e.Records {
		addrs, perr := mail.Undeliverable([]byte(r.Sns.Message))
		if perr != nil {
			logger.Warn("mail event: not an SES event", "cause", perr.Error())
			continue
		}
		for _, a := range addrs {
			if serr := svc.Suppress(ctx, a); serr != nil {
				err = errors.Join(err, serr) // SNS retries the notification
				continue
			}
			n++
		}
	}
	logger.Info("mail events", "suppressed", n)
	return n, true, err
}

// Proxy adapts an http.Handler to a Lambda handler for API Gateway HTTP API
// (payload format 2.0) events. Each request is named by API Gateway's
// request id (else the Lambda invocation's) in the API's logs.
func Proxy(h http.Handler) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return httpadapter.NewV2(WithRequestIDs(h)).ProxyWithContext
}

// WithRequestIDs is the middleware that gives the API the id AWS knows the
// request by: API Gateway's, else the Lambda invocation's. Without either
// the API names the request itself.
func WithRequestIDs(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		id := ""
		if gw, ok := core.GetAPIGatewayV2ContextFromContext(ctx); ok && gw.RequestID != "" {
			id = gw.RequestID
		} else if lc, ok := lambdacontext.FromContext(ctx); ok && lc.AwsRequestID != "" {
			id = lc.AwsRequestID
		}
		if id != "" {
			r = r.WithContext(api.WithRequestID(ctx, id))
		}
		h.ServeHTTP(w, r)
	})
}

// Run is the whole main of a function: configure from the environment, then
// serve invocations until the runtime stops the process. A configuration
// error ends the process with status 1, which Lambda reports as an init
// failure.
func Run() {
	_, a, _ := startup()
	lambda.Start(Proxy(a))
}

// startup is what every main does first: the logger, the environment (also
// returned), the DynamoDB store and the API over it. A failure ends the
// process with status 1, which Lambda reports as an init failure.
func startup() (*slog.Logger, *api.Handler, setup.Config) {
	logger := NewLogger(os.Stdout)
	cfg, err := ConfigFromEnv(os.Getenv)
	if err != nil {
		logger.Error("configuration", "err", err)
		os.Exit(1)
	}
	a, err := NewHandler(context.Background(), cfg, logger)
	if err != nil {
		logger.Error("startup", "err", err)
		os.Exit(1)
	}
	return logger, a, cfg
}

// RunClock is the whole main of the clock function: on each scheduled
// invocation (EventBridge, every minute) it runs the API's sweeper over
// the due index, then returns how many games it changed or reminded.
func RunClock() {
	logger, a, cfg := startup()
	host := strings.TrimPrefix(strings.TrimPrefix(cfg.PushSubject, "https://"), "mailto:")
	lambda.Start(func(ctx context.Context, raw json.RawMessage) (map[string]int, error) {
		if n, ok, err := MailEvents(ctx, a.Service(), raw, logger); ok {
			return map[string]int{"suppressed": n}, err
		}
		n, err := a.Service().Sweep(ctx, host)
		logger.Info("clock sweep", "games", n)
		return map[string]int{"games": n}, err
	})
}
