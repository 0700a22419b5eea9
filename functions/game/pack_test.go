package game

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// aView is a view's JSON of about the size a four-player game's is late
// in a hand (2 KB): the watched page's push carries it packed.
func aView(i int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"id":"g%d","version":%d,"log":[`, i, i)
	for e := range 40 {
		if e > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"seq":%d,"hand":1,"type":"play","seat":%d,"tile":[%d,%d],"end":"left","points":0}`, e, e%4, e%7, (e+i)%7)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// Every packed view unpacks to its own bytes, also when many are packed
// at once (the writers are pooled: none may carry one view into another).
func TestPackedViewsUnpackToThemselves(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			want := aView(i)
			z, err := base64.StdEncoding.DecodeString(packView(want))
			if err != nil {
				t.Error(err)
				return
			}
			r, err := gzip.NewReader(bytes.NewReader(z))
			if err != nil {
				t.Error(err)
				return
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("view %d unpacked to %d bytes (%v), want its %d", i, len(got), err, len(want))
			}
		})
	}
	wg.Wait()
}

// BenchmarkPackView is what packing one watcher's view costs a move,
// beside a new best-compression writer per view as packView made before
// (issue 45), in the same run.
func BenchmarkPackView(b *testing.B) {
	v := aView(1)
	b.Run("pooled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			packView(v)
		}
	})
	b.Run("new-writer-each", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			_, _ = zw.Write(v)
			_ = zw.Close()
			_ = base64.StdEncoding.EncodeToString(buf.Bytes())
		}
	})
}
