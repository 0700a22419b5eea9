package mail

import (
	"strings"
	"testing"
)

// SES's events as SNS carries them: a permanent bounce and a complaint
// name addresses to suppress; a transient bounce and a delivery none.
func TestUndeliverableReadsSESEvents(t *testing.T) {
	for _, c := range []struct {
		name, msg string
		want      []string
	}{
		{"a permanent bounce", `{"eventType":"Bounce","bounce":{"bounceType":"Permanent","bounceSubType":"General","bouncedRecipients":[{"emailAddress":"ana@example.com","action":"failed"}]},"mail":{"messageId":"x"}}`, []string{"ana@example.com"}},
		{"a transient bounce", `{"eventType":"Bounce","bounce":{"bounceType":"Transient","bouncedRecipients":[{"emailAddress":"ana@example.com"}]}}`, nil},
		{"a complaint", `{"eventType":"Complaint","complaint":{"complainedRecipients":[{"emailAddress":"bea@example.com"}],"complaintFeedbackType":"abuse"}}`, []string{"bea@example.com"}},
		{"an identity's bounce notification", `{"notificationType":"Bounce","bounce":{"bounceType":"Permanent","bouncedRecipients":[{"emailAddress":"c@example.com"}]}}`, []string{"c@example.com"}},
		{"a delivery", `{"eventType":"Delivery","delivery":{"recipients":["ana@example.com"]}}`, nil},
	} {
		got, err := Undeliverable([]byte(c.msg))
		if err != nil || strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if _, err := Undeliverable([]byte("not json")); err == nil {
		t.Error("a message that is not JSON read")
	}
}
