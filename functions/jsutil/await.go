//go:build js && wasm

package jsutil

import (
	"context"
	"errors"
	"syscall/js"
)

// Await waits for promise p to settle: its value, or its rejection as an
// error. It must run on a goroutine of its own, never inside a JS
// callback (which would block the event loop the promise needs). A done
// ctx returns at once; the promise still settles later and is dropped.
func Await(ctx context.Context, p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- result{v: v}
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "rejected"
		if len(args) > 0 {
			msg = String(args[0])
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	p.Call("then", then, catch)
	release := func() { then.Release(); catch.Release() }
	select {
	case r := <-ch:
		release()
		return r.v, r.err
	case <-ctx.Done():
		go func() { <-ch; release() }()
		return js.Undefined(), ctx.Err()
	}
}

// String describes a thrown JS value (an Error's message, or String()).
func String(v js.Value) string {
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			return m.String()
		}
	}
	return js.Global().Get("String").Invoke(v).String()
}
