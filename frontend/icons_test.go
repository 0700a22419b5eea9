package frontend

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"
	"testing"
)

// The app icons (the manifest's PNGs) are drawn here, so they are made in
// the repository and not fetched: a domino (a six over a three) on the
// table's felt. `go test ./frontend -run TestIconsAreCurrent -update`
// rewrites them; the test fails when a file differs from the drawing.

var (
	felt = color.RGBA{0x2f, 0x6b, 0x4f, 0xff}
	tile = color.RGBA{0xff, 0xfd, 0xf6, 0xff}
	ink  = color.RGBA{0x1f, 0x23, 0x28, 0xff}
)

// drawIcon draws the icon at size×size pixels, in a coordinate system of
// 32 units like favicon.svg.
func drawIcon(size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	u := float64(size) / 32
	inRound := func(x, y, x0, y0, x1, y1, r float64) bool {
		if x < x0 || x > x1 || y < y0 || y > y1 {
			return false
		}
		cx, cy := min(max(x, x0+r), x1-r), min(max(y, y0+r), y1-r)
		return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r
	}
	pips := [][2]float64{{13, 6.5}, {19, 6.5}, {13, 10}, {19, 10}, {13, 13.5}, {19, 13.5}, {12.5, 19.5}, {16, 23}, {19.5, 26.5}}
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			x, y := (float64(px)+.5)/u, (float64(py)+.5)/u
			c := felt
			switch {
			case inRound(x, y, 8, 2, 24, 30, 3.2) && !inRound(x, y, 9.2, 3.2, 22.8, 28.8, 2.2):
				c = ink
			case inRound(x, y, 9.2, 3.2, 22.8, 28.8, 2.2):
				c = tile
				if y > 15.4 && y < 16.6 && x > 10.5 && x < 21.5 {
					c = ink
				}
				for _, p := range pips {
					if (x-p[0])*(x-p[0])+(y-p[1])*(y-p[1]) <= 1.6*1.6 {
						c = ink
					}
				}
			}
			img.SetRGBA(px, py, c)
		}
	}
	return img
}

func TestIconsAreCurrent(t *testing.T) {
	for _, size := range []int{192, 512} {
		var b bytes.Buffer
		if err := png.Encode(&b, drawIcon(size)); err != nil {
			t.Fatal(err)
		}
		path := "static/assets/icon-" + strconv.Itoa(size) + ".png"
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, b.Bytes()) {
			t.Errorf("%s differs from the drawing: go test ./frontend -run TestIconsAreCurrent -update", path)
		}
		img, err := png.Decode(bytes.NewReader(got))
		if err != nil || img.Bounds().Dx() != size || img.Bounds().Dy() != size {
			t.Errorf("%s is not a %dx%d PNG: %v", path, size, size, err)
		}
	}
}
