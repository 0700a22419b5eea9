package lambdatest

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"tessera/frontend"
	"tessera/internal/testenv"
)

// pagePaths are paths a browser may ask the site for.
var pagePaths = []string{
	"/",
	"/index.html",
	"/game.html",
	"/g/k3x9q2m7ab",
	"/g/AbC-123_xyz",
	"/g/",
	"/g/k3x9q2m7ab/",
	"/g/a/b",
	"/g/a.b",
	"/g",
	"/assets/api.js",
	"/assets/render.js",
	"/assets/nothing.js",
	"/nothing",
}

// runPageRewrite runs template.yaml's CloudFront Function under node (a
// superset of CloudFront's JavaScript runtime) and returns the URI it sends
// to S3 for each path.
func runPageRewrite(t *testing.T, paths []string) map[string]string {
	t.Helper()
	node := testenv.RequireTool(t, "node", "node")
	tmpl := loadTemplate(t)
	fn, err := tmpl.GetCloudFrontFunctionWithName("PageRewriteFunction")
	if err != nil {
		t.Fatal(err)
	}
	if fn.FunctionConfig == nil || fn.FunctionConfig.Runtime != "cloudfront-js-2.0" {
		t.Fatalf("FunctionConfig = %+v, want runtime cloudfront-js-2.0", fn.FunctionConfig)
	}
	const harness = `
const code = require('fs').readFileSync(0, 'utf8');
const handler = new Function(code + '\nreturn handler;')();
const out = {};
for (const uri of JSON.parse(process.argv[1])) {
  out[uri] = handler({request: {method: 'GET', uri, headers: {}, querystring: {}}}).uri;
}
process.stdout.write(JSON.stringify(out));
`
	in, _ := json.Marshal(paths)
	cmd := exec.Command(node, "-e", harness, string(in))
	cmd.Stdin = strings.NewReader(fn.FunctionCode)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the CloudFront function under node: %v\n%s", err, stderr.String())
	}
	got := map[string]string{}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node output %q: %v", out, err)
	}
	return got
}

// On AWS a path is served by CloudFront (the function, then S3 with
// index.html as the root object); locally by frontend.Handler. Both must
// serve the same file for every path, and fail for the same paths.
func TestCloudFrontServesTheSamePageAsTheLocalServer(t *testing.T) {
	rewritten := runPageRewrite(t, pagePaths)
	static := frontend.Static()
	local := frontend.Handler()
	for _, path := range pagePaths {
		t.Run(path, func(t *testing.T) {
			uri, ok := rewritten[path]
			if !ok {
				t.Fatalf("the function returned nothing for %s", path)
			}
			key := strings.TrimPrefix(uri, "/")
			if key == "" {
				key = "index.html" // DefaultRootObject
			}
			cloudBody, cloudErr := fs.ReadFile(static, key)

			rec := httptest.NewRecorder()
			local.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
			localBody, _ := io.ReadAll(rec.Result().Body)

			switch {
			case rec.Code == http.StatusOK && cloudErr != nil:
				t.Errorf("local serves %s, CloudFront asks S3 for %s, which the bucket lacks", path, uri)
			case rec.Code != http.StatusOK && cloudErr == nil && path != "/index.html" && path != "/game.html":
				// The two files themselves exist in the bucket under their
				// names; anything else S3 has, the local server must have too.
				t.Errorf("local answers %d for %s, CloudFront serves %s", rec.Code, path, uri)
			case rec.Code == http.StatusOK && !bytes.Equal(localBody, cloudBody):
				t.Errorf("%s: local serves a different file than CloudFront's %s", path, uri)
			}
		})
	}
}
