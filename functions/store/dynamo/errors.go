package dynamo

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"tessera/functions/store"
)

// isTransient reports whether a DynamoDB call failed for a reason that may
// pass by itself: the caller's deadline or cancellation, throttling, a
// time-out, a server-side fault or a connection that could not be made. Such
// errors become store.ErrUnavailable (the API answers 503); all others are bugs or
// misconfiguration (a missing table, a validation error) and stay plain.
//
// It leans on the SDK's own retry classification, so what the SDK would have
// retried, had it attempts left, is what we call transient.
func isTransient(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return true
	}
	var sendErr *smithyhttp.RequestSendError
	if errors.As(err, &sendErr) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorFault() == smithy.FaultServer {
		return true
	}
	if retry.IsErrorRetryables(retry.DefaultRetryables).IsErrorRetryable(err) == aws.TrueTernary {
		return true
	}
	if (retry.IsErrorThrottles{retry.ThrottleErrorCode{Codes: retry.DefaultThrottleErrorCodes}}).IsErrorThrottle(err) == aws.TrueTernary {
		return true
	}
	return retry.IsErrorTimeouts(retry.DefaultTimeouts).IsErrorTimeout(err) == aws.TrueTernary
}

// dynamoError wraps a failed call's error: as store.ErrUnavailable if transient.
func dynamoError(op, id string, err error) error {
	if isTransient(err) {
		return store.Unavailable(op, id, err)
	}
	return fmt.Errorf("store: dynamo %s %q: %w", op, id, err)
}
