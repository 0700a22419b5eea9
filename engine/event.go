package engine

// EventType is the kind of a public log event (API.md "log").
type EventType uint8

const (
	EventDeal EventType = iota
	EventPlay
	EventDraw
	EventPass
	EventRedeal
	EventKeep
	EventHandEnd
	EventMatchEnd
	EventAway
	EventBack
)

var eventNames = [...]string{"deal", "play", "draw", "pass", "redeal", "keep", "handEnd", "matchEnd", "away", "back"}

func (t EventType) String() string { return eventNames[t] }

// Event is one entry of the public record. Which fields mean something
// depends on Type, as in API.md (package api writes only those, with the
// time the service kept: the rules have no clock).
type Event struct {
	Seq    int
	Hand   int
	Type   EventType
	Seat   int  // play, draw, pass, redeal, keep, away, back
	Leader int  // deal
	Tile   Tile // play: as it lies
	End    End  // play
	Points int  // play: what the count scored
	// Arms (play, a spinner's rule set): the spinner's up and down arms are
	// open after it, four open ends (not in the view: the service's
	// trophies read it).
	Arms   bool
	Count  int     // draw: how many tiles
	Result *Result // handEnd
	Team   int     // matchEnd
	// Timeout is an away event's reason: true for "timeout", false for
	// "asked".
	Timeout bool
}
