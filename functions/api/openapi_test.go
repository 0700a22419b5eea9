package api

import (
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"tessera/functions/store/memory"
)

// routeTemplates is every route of the router with its path as
// docs/openapi.yaml writes it. A route added to the router without a
// line here fails TestOpenAPIMatchesTheRouter.
var routeTemplates = map[route]string{
	routeCreate: "/api/games", routePoll: "/api/games/{id}", routeSeats: "/api/games/{id}/seats",
	routeMoves: "/api/games/{id}/moves", routeRematch: "/api/games/{id}/rematch", routeChat: "/api/games/{id}/chat",
	routeWatch: "/api/games/{id}/watch", routeMe: "/api/me", routeMePush: "/api/me/push", routePushKey: "/api/push",
	routeProfile: "/api/me/profile", routeVacation: "/api/me/vacation", routePlayer: "/api/players/{id}",
	routeLobby: "/api/lobby", routeBoard: "/api/leaderboard/{pool}", routeLeagues: "/api/leagues",
	routeLeague: "/api/leagues/{id}", routeLeagueMembers: "/api/leagues/{id}/members",
	routeLeagueMember: "/api/leagues/{id}/members/{player}", routeLeagueInvite: "/api/leagues/{id}/invite",
	routeTournaments: "/api/tournaments", routeTournament: "/api/tournaments/{id}",
	routeEntries: "/api/tournaments/{id}/entries", routeStart: "/api/tournaments/{id}/start",
	routeHint: "/api/games/{id}/hint", routeNotes: "/api/games/{id}/notes", routeReview: "/api/games/{id}/review",
	routeMutes: "/api/me/mutes/{player}", routeBlocks: "/api/me/blocks/{player}",
	routeReports: "/api/reports", routeReport: "/api/reports/{id}", routeModeration: "/api/players/{id}/moderation",
	routeExport: "/api/me/export", routeEmail: "/api/me/email", routeEmailConfirm: "/api/me/email/confirm",
	routeUnsubscribe: "/api/me/email/unsubscribe",
}

func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile("../../docs/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(t.Context()); err != nil {
		t.Fatalf("docs/openapi.yaml is not a valid OpenAPI document: %v", err)
	}
	if doc.OpenAPIMajorMinor() != "3.1" {
		t.Fatalf("docs/openapi.yaml is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
	return doc
}

// docs/openapi.yaml and the router name the same operations, both ways:
// every route has its path in the document with exactly the router's
// methods (a PATCH on it answers 405 with those methods in Allow), and
// the document has no path the router does not serve.
func TestOpenAPIMatchesTheRouter(t *testing.T) {
	doc := loadOpenAPI(t)
	s := newServer(t, memory.New(), 901)
	if len(routeTemplates) != len(routeNames)-1 {
		t.Fatalf("%d routes have a template, the router has %d", len(routeTemplates), len(routeNames)-1)
	}
	seen := map[string]bool{}
	for rt, tmpl := range routeTemplates {
		seen[tmpl] = true
		item := doc.Paths.Find(tmpl)
		if item == nil {
			t.Errorf("%s (%s) is not in docs/openapi.yaml", tmpl, routeNames[rt])
			continue
		}
		var documented []string
		for method := range item.Operations() {
			documented = append(documented, method)
		}
		want := slices.Clone(allowed[rt])
		slices.Sort(documented)
		slices.Sort(want)
		if !slices.Equal(documented, want) {
			t.Errorf("%s: documented %v, the router allows %v", tmpl, documented, want)
		}
		path := strings.NewReplacer("{id}", "abcdefghijklmnop", "{player}", "pabcdefghijklmno", "{pool}", "fiveup-duel").Replace(tmpl)
		r := s.do("PATCH", path, "", "")
		allow := strings.Split(r.header.Get("Allow"), ", ")
		slices.Sort(allow)
		if r.status != http.StatusMethodNotAllowed || !slices.Equal(allow, want) {
			t.Errorf("PATCH %s: %d, Allow %q; want 405 and %v", path, r.status, r.header.Get("Allow"), want)
		}
	}
	for path := range doc.Paths.Map() {
		if !seen[path] {
			t.Errorf("docs/openapi.yaml documents %s, which the router does not serve", path)
		}
	}
}

// The golden views are valid Views of the document, and every request
// example it gives is accepted by the API's strict decoders (a wrong
// example would be a 400).
func TestOpenAPIValidatesTheGoldensAndItsExamples(t *testing.T) {
	doc := loadOpenAPI(t)
	view := doc.Components.Schemas["View"].Value
	for _, f := range []string{"testdata/view-seat.golden.json", "testdata/view-spectator.golden.json"} {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if err := doc.ValidateSchemaJSON(view, v); err != nil {
			t.Errorf("%s is not a View of docs/openapi.yaml: %v", f, err)
		}
		// The check can fail: a wrong status, a seat's tiles as text, a
		// missing id and a tile of 7 pips are each refused.
		for name, spoil := range map[string]func(m map[string]any){
			"status": func(m map[string]any) { m["status"] = "bogus" },
			"tiles":  func(m map[string]any) { m["seats"].([]any)[0].(map[string]any)["tiles"] = "six" },
			"id":     func(m map[string]any) { delete(m, "id") },
			"pips": func(m map[string]any) {
				m["hand"].(map[string]any)["board"].(map[string]any)["line"].([]any)[0] = []any{7.0, 1.0}
			},
		} {
			var w map[string]any
			_ = json.Unmarshal(raw, &w)
			spoil(w)
			if doc.ValidateSchemaJSON(view, w) == nil {
				t.Errorf("%s with a spoiled %s still validates: the check proves nothing", f, name)
			}
		}
	}
	// The examples: valid against their schema, and not refused as bad input.
	checked := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil {
				continue
			}
			mt := op.RequestBody.Value.Content.Get("application/json")
			if mt == nil || mt.Example == nil {
				t.Errorf("%s %s: a request body without an example", method, path)
				continue
			}
			if err := doc.ValidateSchemaJSON(mt.Schema.Value, mt.Example); err != nil {
				t.Errorf("%s %s: its example is not valid against its schema: %v", method, path, err)
			}
			checked++
		}
	}
	if checked < 15 {
		t.Fatalf("only %d request examples", checked)
	}
	// The strict decoders and the document agree on strictness: an unknown
	// key is refused by both.
	create := doc.Paths.Find("/api/games").Post.RequestBody.Value.Content.Get("application/json").Schema.Value
	bad := map[string]any{"variant": "fiveup", "name": "Ana", "Variant": "fiveup"}
	if doc.ValidateSchemaJSON(create, bad) == nil {
		t.Error("the document accepts an unknown key in a create body")
	}
	s := newServer(t, memory.New(), 902)
	if r := s.do("POST", "/api/games", `{"variant":"fiveup","name":"Ana","Variant":"fiveup"}`, ""); r.status != http.StatusBadRequest {
		t.Errorf("the decoder: %d for an unknown key", r.status)
	}
	good := doc.Paths.Find("/api/games").Post.RequestBody.Value.Content.Get("application/json").Example
	b, _ := json.Marshal(good)
	if r := s.do("POST", "/api/games", string(b), ""); r.status != http.StatusCreated {
		t.Errorf("the document's create example: %d %s", r.status, r.body)
	}
}

// conformsTo fails t unless body is valid against the schema name of
// docs/openapi.yaml's components (the community's answers are checked as
// the views are: additionalProperties false where the document says so).
func conformsTo(t *testing.T, name string, body []byte) {
	t.Helper()
	doc := loadOpenAPI(t)
	ref := doc.Components.Schemas[name]
	if ref == nil {
		t.Fatalf("docs/openapi.yaml has no schema %s", name)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	if err := doc.ValidateSchemaJSON(ref.Value, v); err != nil {
		t.Errorf("not a %s of docs/openapi.yaml: %v\n%s", name, err, body)
	}
}
