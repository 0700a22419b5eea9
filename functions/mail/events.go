package mail

import (
	"encoding/json"
	"strings"
)

// Undeliverable reads one Amazon SES event (the Message of an SNS
// notification from the configuration set's event destination, or an
// identity's feedback notification) and answers the addresses that must
// get no more mail: every recipient of a permanent bounce and of a
// complaint. Other events (a transient bounce, a delivery) answer none.
func Undeliverable(message []byte) ([]string, error) {
	var e struct {
		EventType        string `json:"eventType"`        // configuration set events
		NotificationType string `json:"notificationType"` // identity notifications
		Bounce           struct {
			BounceType string `json:"bounceType"`
			Recipients []struct {
				Address string `json:"emailAddress"`
			} `json:"bouncedRecipients"`
		} `json:"bounce"`
		Complaint struct {
			Recipients []struct {
				Address string `json:"emailAddress"`
			} `json:"complainedRecipients"`
		} `json:"complaint"`
	}
	if err := json.Unmarshal(message, &e); err != nil {
		return nil, err
	}
	kind := e.EventType
	if kind == "" {
		kind = e.NotificationType
	}
	var out []string
	switch {
	case strings.EqualFold(kind, "Bounce") && e.Bounce.BounceType == "Permanent":
		for _, r := range e.Bounce.Recipients {
			out = append(out, r.Address)
		}
	case strings.EqualFold(kind, "Complaint"):
		for _, r := range e.Complaint.Recipients {
			out = append(out, r.Address)
		}
	}
	return out, nil
}
