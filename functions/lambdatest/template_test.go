package lambdatest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/awslabs/goformation/v7"
	"github.com/awslabs/goformation/v7/cloudformation"
	"github.com/awslabs/goformation/v7/cloudformation/policies"
	"github.com/awslabs/goformation/v7/intrinsics"
	"gopkg.in/yaml.v3"

	"tessera/functions/store/dynamo"
	"tessera/internal/testenv"
)

// apiRoutes is API.md's list of operations, and the function that must
// serve each one.
var apiRoutes = []struct{ method, path, function string }{
	{"POST", "/api/games", "CreateFunction"},
	{"POST", "/api/games/{id}/seats", "JoinFunction"},
	{"GET", "/api/games/{id}", "StateFunction"},
	{"POST", "/api/games/{id}/moves", "MoveFunction"},
	{"GET", "/api/me", "PlayerFunction"},
	{"PUT", "/api/me/push", "PlayerFunction"},
	{"DELETE", "/api/me/push", "PlayerFunction"},
	{"GET", "/api/push", "PlayerFunction"},
	{"POST", "/api/games/{id}/rematch", "MoveFunction"},
	{"PUT", "/api/me/profile", "PlayerFunction"},
	{"POST", "/api/me/vacation", "PlayerFunction"},
	{"GET", "/api/games/{id}/chat", "StateFunction"},
	{"POST", "/api/games/{id}/chat", "MoveFunction"},
	{"DELETE", "/api/me/vacation", "PlayerFunction"},
	{"POST", "/api/leagues", "PlayerFunction"},
	{"GET", "/api/leagues/{id}", "PlayerFunction"},
	{"POST", "/api/leagues/{id}/members", "PlayerFunction"},
	{"DELETE", "/api/leagues/{id}/members/{player}", "PlayerFunction"},
	{"POST", "/api/leagues/{id}/invite", "PlayerFunction"},
	{"POST", "/api/tournaments", "PlayerFunction"},
	{"GET", "/api/tournaments/{id}", "StateFunction"},
	{"POST", "/api/tournaments/{id}/entries", "PlayerFunction"},
	{"DELETE", "/api/tournaments/{id}/entries", "PlayerFunction"},
	{"POST", "/api/tournaments/{id}/start", "PlayerFunction"},
	{"GET", "/api/players/{id}", "StateFunction"},
	{"GET", "/api/lobby", "StateFunction"},
	{"GET", "/api/leaderboard/{pool}", "StateFunction"},
	// Additions (docs/api-decisions.md).
	{"PUT", "/api/games/{id}/watch", "PlayerFunction"},
	{"DELETE", "/api/games/{id}/watch", "PlayerFunction"},
	{"POST", "/api/games/{id}/hint", "MoveFunction"},
	{"GET", "/api/games/{id}/notes", "StateFunction"},
	{"GET", "/api/games/{id}/review", "StateFunction"},
	{"PUT", "/api/me/email", "PlayerFunction"},
	{"DELETE", "/api/me/email", "PlayerFunction"},
	{"POST", "/api/me/email/confirm", "PlayerFunction"},
	{"POST", "/api/me/email/unsubscribe", "PlayerFunction"},
	{"PUT", "/api/me/mutes/{player}", "PlayerFunction"},
	{"DELETE", "/api/me/mutes/{player}", "PlayerFunction"},
	{"PUT", "/api/me/blocks/{player}", "PlayerFunction"},
	{"DELETE", "/api/me/blocks/{player}", "PlayerFunction"},
	{"POST", "/api/reports", "PlayerFunction"},
	{"GET", "/api/reports", "PlayerFunction"},
	{"DELETE", "/api/reports/{id}", "PlayerFunction"},
	{"PUT", "/api/players/{id}/moderation", "PlayerFunction"},
	{"DELETE", "/api/me", "PlayerFunction"},
	{"GET", "/api/me/export", "PlayerFunction"},
}

// tableARN is what the test's GetAtt handler turns !GetAtt GamesTable.Arn
// into.
const tableARN = "GetAtt:GamesTable.Arn"

// symbolicIntrinsics keeps references visible after parsing: goformation
// resolves Ref only to parameter defaults and GetAtt to nothing, which would
// make "the resource is the table" uncheckable.
func symbolicIntrinsics() *intrinsics.ProcessorOptions {
	return &intrinsics.ProcessorOptions{IntrinsicHandlerOverrides: map[string]intrinsics.IntrinsicHandler{
		"Ref": func(name string, input, template interface{}) interface{} {
			if v := intrinsics.Ref(name, input, template); v != nil {
				return v // a parameter default or a pseudo parameter
			}
			return fmt.Sprintf("Ref:%v", input)
		},
		// ${Name} is Ref:Name (or the parameter's default), ${Name.Attr} is
		// GetAtt:Name.Attr.
		"Fn::Sub": func(name string, input, template interface{}) interface{} {
			src, ok := input.(string)
			if !ok {
				return intrinsics.FnSub(name, input, template)
			}
			return subVariable.ReplaceAllStringFunc(src, func(m string) string {
				v := m[2 : len(m)-1]
				if strings.Contains(v, ".") {
					return "GetAtt:" + v
				}
				if r := intrinsics.Ref("Ref", v, template); r != nil {
					return fmt.Sprint(r)
				}
				return "Ref:" + v
			})
		},
		"Fn::GetAtt": func(name string, input, template interface{}) interface{} {
			switch v := input.(type) {
			case []interface{}:
				parts := make([]string, len(v))
				for i, p := range v {
					parts[i] = fmt.Sprint(p)
				}
				return "GetAtt:" + strings.Join(parts, ".")
			default:
				return fmt.Sprintf("GetAtt:%v", v)
			}
		},
	}}
}

var subVariable = regexp.MustCompile(`\$\{[^}!]+\}`)

func loadTemplate(t *testing.T) *cloudformation.Template {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := goformation.ParseYAMLWithOptions(withoutRouteSettings(raw), symbolicIntrinsics())
	if err != nil {
		t.Fatalf("parse template.yaml: %v", err)
	}
	return tmpl
}

// withoutRouteSettings cuts the HTTP API's RouteSettings and Auth out of
// the template: goformation types RouteSettings as one setting, where SAM
// (and API Gateway's stage) take a map from route key to setting, and it
// does not know Auth's EnableIamAuthorizer. TestHttpAPIThrottlesEachRoute
// and TestGuidedDeployAsksNothingPerRoute read them with yaml.v3 instead.
func withoutRouteSettings(raw []byte) []byte {
	var out []string
	skipping := false
	for _, line := range strings.Split(string(raw), "\n") {
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if skipping && (strings.TrimSpace(line) == "" || indent > 6) {
			continue
		}
		skipping = false
		if line == "      RouteSettings:" || line == "      Auth:" {
			skipping = true
			continue
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, "\n"))
}

// routeSettings reads HttpApi's RouteSettings: route key -> setting ->
// its value (a parameter's name for !Ref, else the scalar).
func routeSettings(t *testing.T) map[string]map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources struct {
			HttpApi struct {
				Properties struct {
					RouteSettings map[string]map[string]yaml.Node `yaml:"RouteSettings"`
				} `yaml:"Properties"`
			} `yaml:"HttpApi"`
		} `yaml:"Resources"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	out := map[string]map[string]string{}
	for route, settings := range doc.Resources.HttpApi.Properties.RouteSettings {
		out[route] = map[string]string{}
		for k, v := range settings {
			out[route][k] = v.Value
		}
	}
	return out
}

// `sam deploy --guided` asks "X has no authentication. Is this okay?" for
// every HttpApi event that has no Auth of its own and whose API has no Auth
// (SAM CLI's auth_per_resource, samcli/lib/utils/managed_cloudformation...
// /auth_per_resource): ten questions, and the default answer aborts the
// deploy. The API says, once, that it has no authorizer on purpose; every
// route event names that API.
func TestGuidedDeployAsksNothingPerRoute(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources map[string]struct {
			Type       string `yaml:"Type"`
			Properties struct {
				Auth   map[string]any `yaml:"Auth"`
				Events map[string]struct {
					Type       string `yaml:"Type"`
					Properties struct {
						ApiId yaml.Node      `yaml:"ApiId"`
						Auth  map[string]any `yaml:"Auth"`
					} `yaml:"Properties"`
				} `yaml:"Events"`
			} `yaml:"Properties"`
		} `yaml:"Resources"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	events := 0
	for name, r := range doc.Resources {
		for evName, ev := range r.Properties.Events {
			if ev.Type != "HttpApi" {
				continue
			}
			events++
			if len(ev.Properties.Auth) > 0 {
				continue
			}
			api, ok := doc.Resources[ev.Properties.ApiId.Value]
			if ev.Properties.ApiId.Tag != "!Ref" || !ok || len(api.Properties.Auth) == 0 {
				t.Errorf("%s %s: guided deploy would ask whether it may have no authentication", name, evName)
			}
		}
	}
	if events < 10 {
		t.Fatalf("found %d HttpApi events; the template has more", events)
	}
	auth := doc.Resources["HttpApi"].Properties.Auth
	if auth["EnableIamAuthorizer"] != false || len(auth) != 1 {
		t.Errorf("HttpApi Auth = %v, want only EnableIamAuthorizer: false (no authorizer: the handler checks tokens and keys)", auth)
	}
}

// parameterDefault is the default of a template parameter, as a number.
func parameterDefault(t *testing.T, tmpl *cloudformation.Template, name string) float64 {
	t.Helper()
	p, ok := tmpl.Parameters[name]
	if !ok {
		t.Fatalf("no parameter %s", name)
	}
	var f float64
	if _, err := fmt.Sscan(fmt.Sprint(p.Default), &f); err != nil {
		t.Fatalf("parameter %s default %v: %v", name, p.Default, err)
	}
	return f
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestTemplateDeclaresExactlyTheSevenFunctions(t *testing.T) {
	fns := loadTemplate(t).GetAllServerlessFunctionResources()
	var got []string
	for name := range fns {
		got = append(got, name)
	}
	sort.Strings(got)
	want := []string{"ClockFunction", "CreateFunction", "JoinFunction", "MoveFunction", "PlayerFunction", "PublishFunction", "StateFunction"}
	if !slices.Equal(got, want) {
		t.Fatalf("functions = %v, want %v", got, want)
	}
}

func TestEveryFunctionBuildsWithItsMakeTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds five binaries; skipped with -short")
	}
	for name, fn := range loadTemplate(t).GetAllServerlessFunctionResources() {
		t.Run(name, func(t *testing.T) {
			if got := str(fn.Runtime); got != "provided.al2023" {
				t.Errorf("Runtime = %s, want provided.al2023", got)
			}
			if !slices.Equal(fn.Architectures, []string{"arm64"}) {
				t.Errorf("Architectures = %v, want [arm64]", fn.Architectures)
			}
			if got := str(fn.Handler); got != "bootstrap" {
				t.Errorf("Handler = %s, want bootstrap", got)
			}
			if got := fn.AWSCloudFormationMetadata["BuildMethod"]; got != "makefile" {
				t.Errorf("Metadata.BuildMethod = %v, want makefile", got)
			}
			if fn.Environment == nil || fn.Environment.Variables["TABLE_NAME"] != "Ref:GamesTable" {
				t.Errorf("Environment = %+v, want TABLE_NAME: !Ref GamesTable", fn.Environment)
			}
			if fn.CodeUri == nil || fn.CodeUri.String == nil {
				t.Fatalf("CodeUri must be a directory path")
			}
			src, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), *fn.CodeUri.String, "main.go"))
			if err != nil {
				t.Fatalf("CodeUri %s: %v", *fn.CodeUri.String, err)
			}
			want := "lambdaapp.Run()"
			if name == "ClockFunction" {
				want = "lambdaapp.RunClock()"
			} else if name == "PublishFunction" {
				want = "sitepub.Run()"
			}
			if !strings.Contains(string(src), "package main") || !strings.Contains(string(src), want) {
				t.Errorf("%s/main.go is not a thin main calling %s", *fn.CodeUri.String, want)
			}
			// The same make target SAM runs, for this machine's architecture.
			checkLinuxExecutable(t, nativeBootstrap(t, name), runtime.GOARCH)
		})
	}
}

// What SAM packages is the make target without overrides: it must be a
// static linux/arm64 executable, matching Architectures: [arm64].
func TestTheDeployedBuildIsStaticLinuxArm64(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles a function; skipped with -short")
	}
	checkLinuxExecutable(t, makeBootstrap(t, "build-StateFunction", ""), "arm64")
}

func TestTemplateRoutesEveryAPIOperationToItsFunction(t *testing.T) {
	type route struct{ method, path string }
	served := map[route][]string{}
	for name, fn := range loadTemplate(t).GetAllServerlessFunctionResources() {
		for eventName, ev := range fn.Events {
			if name == "ClockFunction" {
				continue // its schedule: TestTheClockRunsEveryMinute
			}
			if ev.Type != "HttpApi" {
				t.Errorf("%s event %s has type %s; only HttpApi events are expected", name, eventName, ev.Type)
				continue
			}
			if ev.Properties == nil || ev.Properties.HttpApiEvent == nil {
				t.Errorf("%s event %s: no HttpApi properties", name, eventName)
				continue
			}
			p := ev.Properties.HttpApiEvent
			if got := str(p.ApiId); got != "Ref:HttpApi" {
				t.Errorf("%s %s: ApiId = %s, want !Ref HttpApi", name, eventName, got)
			}
			if got := str(p.PayloadFormatVersion); got != "2.0" {
				t.Errorf("%s %s: PayloadFormatVersion = %s, want 2.0 (httpadapter.NewV2)", name, eventName, got)
			}
			r := route{str(p.Method), str(p.Path)}
			served[r] = append(served[r], name)
		}
	}
	for _, want := range apiRoutes {
		r := route{want.method, want.path}
		if got := served[r]; !slices.Equal(got, []string{want.function}) {
			t.Errorf("%s %s is served by %v, want [%s]", want.method, want.path, got, want.function)
		}
		delete(served, r)
	}
	// The one extra route: the catch-all that lets the handler answer 404/405
	// itself. It must go to a function that cannot write.
	fallback := route{"ANY", "/api/{proxy+}"}
	if got := served[fallback]; len(got) != 1 || slices.Contains(wantActions[got[0]], "dynamodb:PutItem") {
		t.Errorf("ANY /api/{proxy+} is served by %v, want exactly one read-only function", got)
	}
	delete(served, fallback)
	for r, fns := range served {
		t.Errorf("unexpected route %s %s -> %v", r.method, r.path, fns)
	}
}

func TestHttpAPIThrottlesTheDefaultRoute(t *testing.T) {
	api, err := loadTemplate(t).GetServerlessHttpApiWithName("HttpApi")
	if err != nil {
		t.Fatal(err)
	}
	s := api.DefaultRouteSettings
	if s == nil || s.ThrottlingRateLimit == nil || s.ThrottlingBurstLimit == nil {
		t.Fatalf("DefaultRouteSettings = %+v, want rate and burst limits", s)
	}
	if *s.ThrottlingRateLimit <= 0 || *s.ThrottlingBurstLimit <= 0 {
		t.Errorf("throttling rate %v burst %v, want both > 0", *s.ThrottlingRateLimit, *s.ThrottlingBurstLimit)
	}
	if api.StageName != nil {
		t.Errorf("StageName = %s; want the $default stage so paths keep their /api/ prefix unchanged", *api.StageName)
	}
}

// TestHttpAPIThrottlesEachRoute: creating games (and rematches) is
// throttled much lower than the default route the polls take, and the
// routes that run computer players lower than polls too; every route key
// names a route the template has.
func TestHttpAPIThrottlesEachRoute(t *testing.T) {
	tmpl := loadTemplate(t)
	routes := routeSettings(t)
	poll := parameterDefault(t, tmpl, "ApiThrottleRate")
	want := map[string]string{
		"POST /api/games":              "CreateThrottle",
		"POST /api/games/{id}/rematch": "CreateThrottle",
		"POST /api/games/{id}/moves":   "MoveThrottle",
		"POST /api/games/{id}/seats":   "MoveThrottle",
		// A hint thinks as a move's computers do (docs/hints.md).
		"POST /api/games/{id}/hint": "MoveThrottle",
		// A new device or profile may make a player record (attack kit D4).
		"PUT /api/me/push":    "CreateThrottle",
		"PUT /api/me/profile": "CreateThrottle",
	}
	if len(routes) != len(want) {
		t.Errorf("RouteSettings for %v, want %v", routes, want)
	}
	for route, prefix := range want {
		s := routes[route]
		if s["ThrottlingRateLimit"] != prefix+"Rate" || s["ThrottlingBurstLimit"] != prefix+"Burst" {
			t.Errorf("%s: %v, want !Ref %sRate and %sBurst", route, s, prefix, prefix)
			continue
		}
		method, path, _ := strings.Cut(route, " ")
		if !slices.ContainsFunc(apiRoutes, func(r struct{ method, path, function string }) bool {
			return r.method == method && r.path == path
		}) {
			t.Errorf("%s is not one of the template's routes", route)
		}
	}
	create, move := parameterDefault(t, tmpl, "CreateThrottleRate"), parameterDefault(t, tmpl, "MoveThrottleRate")
	if create*10 > poll || move >= poll || create >= move {
		t.Errorf("rates create %v, moves %v, polls %v: want create at most a tenth of polls, and create < moves < polls", create, move, poll)
	}
}

func TestGamesTableMatchesTheStoreLayout(t *testing.T) {
	tmpl := loadTemplate(t)
	table, err := tmpl.GetDynamoDBTableWithName("GamesTable")
	if err != nil {
		t.Fatal(err)
	}
	if len(table.KeySchema) != 1 || table.KeySchema[0].AttributeName != dynamo.KeyAttr || table.KeySchema[0].KeyType != "HASH" {
		t.Errorf("KeySchema = %+v, want one HASH key %q", table.KeySchema, dynamo.KeyAttr)
	}
	defs := map[string]string{}
	for _, d := range table.AttributeDefinitions {
		defs[d.AttributeName] = d.AttributeType
	}
	want := map[string]string{dynamo.KeyAttr: "S", dynamo.DueShardAttr: "S", dynamo.DueAttr: "N", dynamo.ListAttr: "S", dynamo.RankAttr: "S"}
	if fmt.Sprint(defs) != fmt.Sprint(want) {
		t.Errorf("AttributeDefinitions = %v, want %v (the key and the indexes' keys)", defs, want)
	}
	indexes := map[string]string{}
	for _, ix := range table.GlobalSecondaryIndexes {
		keys := ""
		for _, k := range ix.KeySchema {
			keys += k.AttributeName + ":" + k.KeyType + " "
		}
		proj := ""
		if ix.Projection != nil {
			proj = str(ix.Projection.ProjectionType) + fmt.Sprint(ix.Projection.NonKeyAttributes)
		}
		indexes[ix.IndexName] = keys + proj
	}
	wantIx := map[string]string{
		dynamo.DueIndex:  dynamo.DueShardAttr + ":HASH " + dynamo.DueAttr + ":RANGE KEYS_ONLY[]",
		dynamo.ListIndex: dynamo.ListAttr + ":HASH " + dynamo.RankAttr + ":RANGE INCLUDE[" + dynamo.CardAttr + "]",
	}
	if fmt.Sprint(indexes) != fmt.Sprint(wantIx) {
		t.Errorf("GlobalSecondaryIndexes = %v, want %v (store/dynamo's CreateTable)", indexes, wantIx)
	}
	ttl := table.TimeToLiveSpecification
	if ttl == nil || str(ttl.AttributeName) != dynamo.TTLAttr || !ttl.Enabled {
		t.Errorf("TimeToLiveSpecification = %+v, want enabled on %q", ttl, dynamo.TTLAttr)
	}
	if got := str(table.BillingMode); got != "PAY_PER_REQUEST" {
		t.Errorf("BillingMode = %s, want PAY_PER_REQUEST", got)
	}
	if p := table.PointInTimeRecoverySpecification; p == nil || p.PointInTimeRecoveryEnabled == nil || !*p.PointInTimeRecoveryEnabled {
		t.Errorf("PointInTimeRecoverySpecification = %+v, want enabled", p)
	}
	if table.AWSCloudFormationDeletionPolicy != policies.DeletionPolicy("Retain") {
		t.Errorf("DeletionPolicy = %q, want Retain", table.AWSCloudFormationDeletionPolicy)
	}
	if table.AWSCloudFormationUpdateReplacePolicy != policies.UpdateReplacePolicy("Retain") {
		t.Errorf("UpdateReplacePolicy = %q, want Retain", table.AWSCloudFormationUpdateReplacePolicy)
	}
}

// Every function's log group is declared, so its logs expire.
func TestEveryFunctionsLogsExpire(t *testing.T) {
	tmpl := loadTemplate(t)
	groups := map[string]int{}
	for name, g := range tmpl.GetAllLogsLogGroupResources() {
		if g.AWSCloudFormationDeletionPolicy != policies.DeletionPolicy("Delete") || g.AWSCloudFormationUpdateReplacePolicy != policies.UpdateReplacePolicy("Delete") {
			t.Errorf("%s: DeletionPolicy %q, UpdateReplacePolicy %q; want both Delete, stated (cfn-lint I3011)", name, g.AWSCloudFormationDeletionPolicy, g.AWSCloudFormationUpdateReplacePolicy)
		}
		if g.RetentionInDays == nil || *g.RetentionInDays <= 0 {
			t.Errorf("%s: RetentionInDays = %v, want a positive number of days", name, g.RetentionInDays)
			continue
		}
		groups[str(g.LogGroupName)] = *g.RetentionInDays
	}
	for name := range tmpl.GetAllServerlessFunctionResources() {
		want := "/aws/lambda/Ref:" + name
		if _, ok := groups[want]; !ok {
			t.Errorf("no log group %s for %s (have %v)", want, name, groups)
		}
	}
}

// The clock function runs on a schedule of one minute (API.md: a deadline
// is enforced within 2 minutes), has no route, and the table has the
// sparse due index the store queries.
func TestTheClockRunsEveryMinute(t *testing.T) {
	tmpl := loadTemplate(t)
	fn, err := tmpl.GetServerlessFunctionWithName("ClockFunction")
	if err != nil {
		t.Fatal(err)
	}
	// One schedule, and SES's bounces and complaints through SNS
	// (docs/email.md).
	if len(fn.Events) != 2 {
		t.Fatalf("ClockFunction events = %v, want one schedule and the mail events", fn.Events)
	}
	for name, ev := range fn.Events {
		if ev.Type == "SNS" && name == "MailEvents" {
			continue
		}
		if ev.Type != "Schedule" || ev.Properties == nil || ev.Properties.ScheduleEvent == nil ||
			ev.Properties.ScheduleEvent.Schedule != "rate(1 minute)" {
			t.Errorf("ClockFunction event %s: %+v, want a Schedule of rate(1 minute)", name, ev)
		}
	}
	if got := fn.Timeout; got == nil || *got >= 60 {
		t.Errorf("ClockFunction Timeout %v: a sweep must end before the next one starts", got)
	}
	table, err := tmpl.GetDynamoDBTableWithName("GamesTable")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, gsi := range table.GlobalSecondaryIndexes {
		if gsi.IndexName != dynamo.DueIndex {
			continue
		}
		found = true
		if len(gsi.KeySchema) != 2 || gsi.KeySchema[0].AttributeName != dynamo.DueShardAttr || gsi.KeySchema[0].KeyType != "HASH" ||
			gsi.KeySchema[1].AttributeName != dynamo.DueAttr || gsi.KeySchema[1].KeyType != "RANGE" {
			t.Errorf("index %s keys %+v, want %s HASH, %s RANGE", gsi.IndexName, gsi.KeySchema, dynamo.DueShardAttr, dynamo.DueAttr)
		}
		if gsi.Projection == nil || gsi.Projection.ProjectionType == nil || *gsi.Projection.ProjectionType != "KEYS_ONLY" {
			t.Errorf("index %s projection %+v, want KEYS_ONLY", gsi.IndexName, gsi.Projection)
		}
	}
	if !found {
		t.Errorf("GamesTable has no index %q", dynamo.DueIndex)
	}
}

// TestTheMakefileWorksFromAPathWithASpace copies the Makefile and the
// module into a directory whose name has a space, with BUILD_GOARCH=amd64
// in the environment (as a shell might have it), and builds as SAM does:
// the bootstrap lands in ARTIFACTS_DIR and is still for arm64.
func TestTheMakefileWorksFromAPathWithASpace(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles a function; skipped with -short")
	}
	root := filepath.Join(t.TempDir(), "my games", "tessera")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	src := testenv.RepoRoot()
	cp := exec.Command("bash", "-c", `tar -C "$0" --exclude=./node_modules --exclude=./.git --exclude=./bin -cf - . | tar -C "$1" -xf -`, src, root)
	if out, err := cp.CombinedOutput(); err != nil {
		t.Fatalf("copy the project: %v\n%s", err, out)
	}
	artifacts := filepath.Join(t.TempDir(), "art dir")
	for _, how := range [][]string{
		{"-C", root},                            // from the project root
		{"-f", filepath.Join(root, "Makefile")}, // as SAM runs it, from elsewhere
	} {
		args := append(how, "build-StateFunction", "ARTIFACTS_DIR="+artifacts)
		cmd := exec.Command("make", args...)
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "BUILD_GOARCH=amd64", "BUILD_GOOS=windows")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make %v: %v\n%s", args, err, out)
		}
		checkLinuxExecutable(t, filepath.Join(artifacts, "bootstrap"), "arm64")
		os.Remove(filepath.Join(artifacts, "bootstrap"))
	}
}
