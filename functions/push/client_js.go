//go:build js

package push

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"syscall/js"

	"tessera/functions/jsutil"
)

// Client returns what pushes are sent with on js/wasm (the Cloudflare
// Worker): the runtime's fetch, called directly. Go's own http.Transport
// would reach fetch too, but linking it (with its TLS and HTTP/2 client)
// makes the module 4.5 MB larger (1 MB gzipped), against the Workers size
// limit. The Worker cannot check the address a name resolves to (fetch
// resolves it), so only CheckEndpoint's checks of the URL apply; Workers'
// fetch does not reach private networks. It follows no redirect.
func Client(insecure bool) Doer { return fetcher{} }

type fetcher struct{}

// maxResponse bounds the push service's answer that is read.
const maxResponse = 64 << 10

func (fetcher) Do(req *http.Request) (*http.Response, error) {
	headers := js.Global().Get("Headers").New()
	for k, vs := range req.Header {
		for _, v := range vs {
			headers.Call("append", k, v)
		}
	}
	init := map[string]any{"method": req.Method, "headers": headers, "redirect": "manual"}
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		a := js.Global().Get("Uint8Array").New(len(body))
		js.CopyBytesToJS(a, body)
		init["body"] = a
	}
	ctx := req.Context()
	res, err := jsutil.Await(ctx, js.Global().Call("fetch", req.URL.String(), init))
	if err != nil {
		return nil, fmt.Errorf("push: fetch: %w", err)
	}
	buf, err := jsutil.Await(ctx, res.Call("arrayBuffer"))
	if err != nil {
		return nil, fmt.Errorf("push: fetch: the body: %w", err)
	}
	b := make([]byte, min(buf.Get("byteLength").Int(), maxResponse))
	js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(buf, 0, len(b)))
	out := &http.Response{StatusCode: res.Get("status").Int(), Header: http.Header{},
		Body: io.NopCloser(bytes.NewReader(b)), Request: req}
	out.Status = fmt.Sprint(out.StatusCode, " ", http.StatusText(out.StatusCode))
	res.Get("headers").Call("forEach", js.FuncOf(func(_ js.Value, args []js.Value) any {
		out.Header.Add(args[1].String(), args[0].String())
		return nil
	}))
	return out, nil
}
