package layers

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"tessera/internal/testenv"
)

// deps lists what pkg imports, directly or not, outside the standard
// library (go list -deps, without tests).
func deps(t *testing.T, pkg string, env ...string) map[string]bool {
	t.Helper()
	// go list reads the imports in its own process: go test's cache is told
	// about every package's sources (once per binary: testenv's inputs.go).
	testenv.TrackBuild(t, nil, "-e", "./...")
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	set := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		set[p] = true
	}
	if !set[pkg] {
		t.Fatalf("go list -deps %s does not list the package itself: %q", pkg, out)
	}
	return set
}

// has reports the first dependency of set that starts with prefix.
func has(set map[string]bool, prefix string) string {
	for p := range set {
		if p == prefix || strings.HasPrefix(p, prefix+"/") {
			return p
		}
	}
	return ""
}

const (
	testClock   = "tessera/functions/testclock" // test builds only (-tags testclock)
	bbolt       = "go.etcd.io/bbolt"
	lambdaGo    = "github.com/aws/aws-lambda-go"
	lambdaProxy = "github.com/awslabs/aws-lambda-go-api-proxy"
	awsSDK      = "github.com/aws/aws-sdk-go-v2"
)

func TestEachBinaryLinksOnlyWhatItUses(t *testing.T) {
	cases := []struct {
		pkg       string
		forbidden []string
		needed    []string
	}{
		{"tessera/engine", []string{"tessera/functions", "tessera/engine/bot", bbolt, lambdaGo, awsSDK}, nil},
		{"tessera/engine/bot", []string{"tessera/functions", bbolt, lambdaGo, awsSDK}, []string{"tessera/engine"}},
		{"tessera/engine/rating", []string{"tessera/engine/bot", "tessera/functions", bbolt, lambdaGo, awsSDK}, nil},
		{"tessera/engine/pairing", []string{"tessera/engine/bot", "tessera/functions", bbolt, lambdaGo, awsSDK}, nil},
		{"tessera/functions/api", []string{bbolt, lambdaGo, lambdaProxy, awsSDK, "tessera/functions/store/bolt",
			"tessera/functions/store/dynamo", "tessera/functions/store/memory"}, []string{"tessera/functions/store", "tessera/engine", "tessera/functions/game"}},
		{"tessera/functions/store", []string{"tessera/engine", bbolt, awsSDK, lambdaGo}, nil},
		// The game service never imports the community: it calls it
		// through game.Community at its seams.
		{"tessera/functions/game", []string{"tessera/functions/api", "tessera/functions/community", bbolt, awsSDK, lambdaGo, "tessera/functions/store/bolt",
			"tessera/functions/store/dynamo", "tessera/functions/store/memory", "tessera/engine/pairing"}, []string{"tessera/functions/store", "tessera/engine", "tessera/engine/bot/referee",
			"tessera/engine/rating"}},
		{"tessera/functions/community", []string{"tessera/functions/api", bbolt, awsSDK, lambdaGo, "tessera/functions/store/bolt",
			"tessera/functions/store/dynamo", "tessera/functions/store/memory"}, []string{"tessera/functions/game", "tessera/engine/pairing"}},
		{"tessera/functions/create", []string{bbolt, "tessera/functions/store/bolt", "tessera/functions/local", testClock}, []string{lambdaGo, awsSDK, "tessera/functions/setup"}},
		{"tessera/functions/join", []string{bbolt, "tessera/functions/store/bolt", testClock}, []string{lambdaGo}},
		{"tessera/functions/state", []string{bbolt, "tessera/functions/store/bolt", testClock}, []string{lambdaGo}},
		{"tessera/functions/move", []string{bbolt, "tessera/functions/store/bolt", testClock}, []string{lambdaGo}},
		{"tessera/functions/player", []string{bbolt, "tessera/functions/store/bolt", testClock}, []string{lambdaGo}},
		{"tessera/functions/clock", []string{bbolt, "tessera/functions/store/bolt", testClock}, []string{lambdaGo, "tessera/functions/api"}},
		// The page's custom resource: the page, the site's origin item
		// (the game service over DynamoDB), no HTTP API and no bbolt.
		{"tessera/functions/publish", []string{bbolt, "tessera/functions/store/bolt", testClock, "tessera/functions/api", lambdaProxy},
			[]string{lambdaGo, "tessera/frontend", "tessera/functions/game", "tessera/functions/store/dynamo"}},
		{"tessera/functions/local", []string{lambdaGo, lambdaProxy, "tessera/functions/lambdaapp", testClock}, []string{bbolt, "tessera/frontend", "tessera/functions/setup"}},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			set := deps(t, c.pkg)
			for _, f := range c.forbidden {
				if p := has(set, f); p != "" {
					t.Errorf("%s depends on %s", c.pkg, p)
				}
			}
			for _, n := range c.needed {
				if has(set, n) == "" {
					t.Errorf("%s does not depend on %s: the check above proves nothing", c.pkg, n)
				}
			}
		})
	}
}

// TestTheWorkerLinksNeitherAWSNorBbolt: the Cloudflare Worker's module
// (js/wasm) has the API on D1 and nothing of the other deployments.
func TestTheWorkerLinksNeitherAWSNorBbolt(t *testing.T) {
	set := deps(t, "tessera/functions/worker", "GOOS=js", "GOARCH=wasm")
	for _, f := range []string{bbolt, lambdaGo, lambdaProxy, awsSDK, "tessera/functions/store/bolt",
		"tessera/functions/store/dynamo", "tessera/functions/store/memory", "tessera/functions/lambdaapp", testClock} {
		if p := has(set, f); p != "" {
			t.Errorf("the Worker depends on %s", p)
		}
	}
	for _, n := range []string{"tessera/functions/api", "tessera/functions/store/d1", "tessera/frontend", "tessera/functions/workerapp", "tessera/functions/setup"} {
		if has(set, n) == "" {
			t.Errorf("the Worker does not depend on %s: the check above proves nothing", n)
		}
	}
}

// TestTheTestClockIsInTestBuildsOnly: the local server and the Worker built
// with -tags testclock link the clock a test moves; without the tag (every
// release) they do not (TestEachBinaryLinksOnlyWhatItUses).
func TestTheTestClockIsInTestBuildsOnly(t *testing.T) {
	if has(deps(t, "tessera/functions/local", "GOFLAGS=-tags=testclock"), testClock) == "" {
		t.Error("the local server's test build does not link the test clock")
	}
	if has(deps(t, "tessera/functions/worker", "GOOS=js", "GOARCH=wasm", "GOFLAGS=-tags=testclock"), testClock) == "" {
		t.Error("the Worker's test build does not link the test clock")
	}
}

// TestTheRulesKnowNoHTTP: the engine, the computer players and the store's
// contract import no net/http (standard library included): HTTP is the
// api's and the deployments' business.
func TestTheRulesKnowNoHTTP(t *testing.T) {
	for _, pkg := range []string{"tessera/engine", "tessera/engine/bot", "tessera/engine/bot/referee", "tessera/functions/store"} {
		cmd := exec.Command("go", "list", "-deps", pkg)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		list := strings.Fields(string(out))
		if len(list) < 2 {
			t.Fatalf("go list -deps %s listed %q", pkg, out)
		}
		for _, p := range list {
			if p == "net/http" || strings.HasPrefix(p, "net/http/") {
				t.Errorf("%s depends on %s", pkg, p)
			}
		}
	}
}

// TestTheAPIGoesThroughTheServices: package api imports no store package
// (it builds the services over the store it is given, and reads and
// writes only through them) and the engine only for its values.
func TestTheAPIGoesThroughTheServices(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", "tessera/functions/api").Output()
	if err != nil {
		t.Fatal(err)
	}
	imports := strings.Fields(string(out))
	if !slices.Contains(imports, "tessera/functions/game") {
		t.Fatalf("go list listed %q: api does not import the game service, the check below proves nothing", out)
	}
	for _, p := range imports {
		if p == "tessera/functions/store" || strings.HasPrefix(p, "tessera/functions/store/") {
			t.Errorf("package api imports %s", p)
		}
	}
}

// TestTheServiceKnowsNoHTTP: the game service and the community import no
// net/http themselves
// (ids and values in, values and errors out); its one way out to HTTP is
// package push, the Web Push client, which imports no server side.
func TestTheServiceKnowsNoHTTP(t *testing.T) {
	for _, pkg := range []string{"tessera/functions/game", "tessera/functions/community"} {
		out, err := exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", pkg).Output()
		if err != nil {
			t.Fatal(err)
		}
		imports := strings.Fields(string(out))
		if len(imports) < 5 {
			t.Fatalf("go list listed %q", out)
		}
		for _, p := range imports {
			if p == "net/http" || strings.HasPrefix(p, "net/http/") || p == "tessera/functions/api" {
				t.Errorf("%s imports %s", pkg, p)
			}
		}
	}
}
