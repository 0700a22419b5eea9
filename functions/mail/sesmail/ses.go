// Package sesmail sends the site's mail through Amazon SES (the AWS
// deployment: functions/lambdaapp). Apart from package mail, so nothing
// else links the AWS SDK's SES client (internal/layers).
package sesmail

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"tessera/functions/mail"
)

// SESAPI is the one call of Amazon SES v2 that SES makes.
type SESAPI interface {
	SendEmail(ctx context.Context, in *sesv2.SendEmailInput, opts ...func(*sesv2.Options)) (*sesv2.SendEmailOutput, error)
}

// SES sends through Amazon SES (the AWS deployment): the message as Build
// writes it, raw, so it carries the one-click unsubscribe headers, with
// the configuration set whose events (bounces, complaints) reach the
// clock function through SNS (docs/email.md).
type SES struct {
	Client           SESAPI
	From             string
	ConfigurationSet string           // "" none
	Now              func() time.Time // nil: time.Now
}

// Send hands m to SES.
func (s SES) Send(ctx context.Context, m mail.Message) error {
	data, err := mail.BuildNow(s.From, m, s.Now)
	if err != nil {
		return err
	}
	in := &sesv2.SendEmailInput{
		Destination: &types.Destination{ToAddresses: []string{m.To}},
		Content:     &types.EmailContent{Raw: &types.RawMessage{Data: data}},
	}
	if s.ConfigurationSet != "" {
		in.ConfigurationSetName = aws.String(s.ConfigurationSet)
	}
	if _, err := s.Client.SendEmail(ctx, in); err != nil {
		return fmt.Errorf("ses: %w", err)
	}
	return nil
}
