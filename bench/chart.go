package bench

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"strings"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// The chart's size in pixels: ChartWidth is its least width, and it is
// wider where its groups of bars would leave a bar less than minBar pixels.
const (
	ChartWidth  = 1280
	ChartHeight = 720
)

// minBar is the least width of a bar, in pixels.
const minBar = 14

// Palette is the adapters' bar colours, in the order they first appear in
// the results (the Okabe-Ito colours, told apart with colour blindness);
// past its end it starts over.
var Palette = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x00, 0x9e, 0x73, 0xff}, // green
	{0xcc, 0x79, 0xa7, 0xff}, // pink
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0xf0, 0xe4, 0x42, 0xff}, // yellow
}

var (
	white    = color.RGBA{0xff, 0xff, 0xff, 0xff}
	ink      = color.RGBA{0x20, 0x20, 0x20, 0xff}
	gridGray = color.RGBA{0xe0, 0xe0, 0xe0, 0xff}
	naGray   = color.RGBA{0x90, 0x90, 0x90, 0xff}
)

var face = basicfont.Face7x13

// WritePNG draws the results with Chart and writes them as a PNG.
func WritePNG(w io.Writer, results []Result) error {
	return png.Encode(w, Chart(results))
}

// Chart draws the results as grouped bars, ChartWidth (or wider, see
// minBar) by ChartHeight on white: a group per workload (in the order of the results), a bar per
// adapter in its Palette colour, the bar's height its time per operation
// on a log scale (a decade per grid line), the bar's label its ratio to the
// fastest adapter of the workload. A result not measured has no bar but
// "n/a" on the axis; an adapter with nothing measured has no bars. With a
// title, a legend of the adapters, and labelled axes.
func Chart(results []Result) *image.RGBA {
	l := layOut(results)
	img := image.NewRGBA(image.Rectangle{Max: l.size})
	fill(img, img.Bounds(), white)

	text(img, 20, 22, ink, "agentenkit sandbox adapters, the host and peers, one run of make bench: time per operation (log scale); on each bar its ratio to the fastest of the workload")
	for _, e := range l.legend {
		fill(img, e.swatch, e.color)
		text(img, e.swatch.Max.X+6, e.swatch.Max.Y-1, ink, e.adapter)
	}

	// The y axis: a grid line and label per decade.
	for k := l.lo; k <= l.hi; k++ {
		y := l.y(math.Pow(10, float64(k)))
		fill(img, image.Rect(l.plot.Min.X, y, l.plot.Max.X, y+1), gridGray)
		s := decade(k)
		text(img, l.plot.Min.X-8-textWidth(s), y+4, ink, s)
	}
	verticalText(img, 18, (l.plot.Min.Y+l.plot.Max.Y)/2+textWidth(yAxisLabel)/2, ink, yAxisLabel)

	for _, b := range l.bars {
		c := ink
		if b.measured {
			fill(img, b.rect, b.color)
		} else {
			c = naGray
		}
		text(img, b.labelBox.Min.X, b.labelBox.Max.Y-labelDescent, c, b.label)
	}

	// The axes over the bars, then the workloads under them.
	fill(img, image.Rect(l.plot.Min.X-1, l.plot.Min.Y, l.plot.Min.X, l.plot.Max.Y+1), ink)
	fill(img, image.Rect(l.plot.Min.X-1, l.plot.Max.Y, l.plot.Max.X, l.plot.Max.Y+1), ink)
	lines := 1
	for _, g := range l.groups {
		for i, line := range g.lines {
			text(img, (g.x0+g.x1-textWidth(line))/2, l.plot.Max.Y+18+14*i, ink, line)
		}
		lines = max(lines, len(g.lines))
	}
	text(img, (l.plot.Min.X+l.plot.Max.X-textWidth(xAxisLabel))/2, min(l.plot.Max.Y+18+14*lines+12, ChartHeight-8), ink, xAxisLabel)
	return img
}

const (
	yAxisLabel = "time per operation (log scale; the concurrent workload: wall time of all)"
	xAxisLabel = "workload (one bar per column of the table)"
)

// chartLayout is where Chart puts everything, apart from the drawing.
type chartLayout struct {
	size   image.Point // the image's
	plot   image.Rectangle
	lo, hi int // the axis spans 10^lo to 10^hi nanoseconds
	bars   []chartBar
	groups []chartGroup
	legend []chartLegend
}

// chartBar is one result: its bar (zero height on the axis when not
// measured) and its label (the ratio, or "n/a").
type chartBar struct {
	workload, adapter string
	rect              image.Rectangle
	color             color.RGBA
	label             string
	labelBox          image.Rectangle // where the label is drawn: over the bar, clear of the others
	measured          bool
}

// The label's height and the part of it under the baseline, in pixels.
const (
	labelHeight  = 13
	labelDescent = 3
)

// chartGroup is a workload: its span on the x axis and its name in lines
// that fit it.
type chartGroup struct {
	workload string
	x0, x1   int
	lines    []string
}

// chartLegend is an adapter's entry in the legend.
type chartLegend struct {
	adapter string
	color   color.RGBA
	swatch  image.Rectangle
}

// y is the pixel row of ns nanoseconds on the axis.
func (l chartLayout) y(ns float64) int {
	f := (math.Log10(ns) - float64(l.lo)) / float64(l.hi-l.lo)
	return l.plot.Max.Y - int(math.Round(f*float64(l.plot.Dy())))
}

func layOut(results []Result) chartLayout {
	results, _ = splitUnmeasured(results)
	var adapters, workloads []string
	colour := map[string]color.RGBA{}
	cell := map[[2]string]Result{}
	best := map[string]time.Duration{}
	minNs, maxNs := math.Inf(1), math.Inf(-1)
	for _, r := range results {
		if _, ok := colour[r.Adapter]; !ok {
			colour[r.Adapter] = Palette[len(adapters)%len(Palette)]
			adapters = append(adapters, r.Adapter)
		}
		if _, ok := best[r.Workload]; !ok {
			best[r.Workload] = 0
			workloads = append(workloads, r.Workload)
		}
		cell[[2]string{r.Workload, r.Adapter}] = r
		if r.Err == nil && r.PerOp > 0 {
			if b := best[r.Workload]; b == 0 || r.PerOp < b {
				best[r.Workload] = r.PerOp
			}
			minNs, maxNs = min(minNs, float64(r.PerOp)), max(maxNs, float64(r.PerOp))
		}
	}
	// Each group's bars take 8/10 of it (see below), each bar minBar at
	// least, the plot 120 pixels less than the image.
	width := max(ChartWidth, 120+len(workloads)*(len(adapters)*minBar*10/8+1))
	l := chartLayout{size: image.Pt(width, ChartHeight), plot: image.Rect(100, 90, width-20, ChartHeight-90)}
	l.lo, l.hi = 3, 9 // 1 µs to 1 s when nothing was measured
	if minNs <= maxNs {
		l.lo, l.hi = int(math.Floor(math.Log10(minNs))), int(math.Ceil(math.Log10(maxNs)))
		if l.hi == l.lo {
			l.hi++
		}
	}

	x := l.plot.Min.X
	for _, a := range adapters {
		l.legend = append(l.legend, chartLegend{adapter: a, color: colour[a], swatch: image.Rect(x, 38, x+14, 52)})
		x += 14 + 6 + textWidth(a) + 24
	}

	if len(workloads) == 0 {
		return l
	}
	gw := l.plot.Dx() / len(workloads)
	for i, w := range workloads {
		g := chartGroup{workload: w, x0: l.plot.Min.X + i*gw, x1: l.plot.Min.X + (i+1)*gw}
		g.lines = wrap(strings.ReplaceAll(w, "`", ""), (gw-8)/textWidth("m"))
		l.groups = append(l.groups, g)
		inner := gw * 8 / 10
		bw := inner / len(adapters)
		x0 := g.x0 + (gw-bw*len(adapters))/2
		for j, a := range adapters {
			r, ok := cell[[2]string{w, a}]
			b := chartBar{workload: w, adapter: a, color: colour[a], label: "n/a"}
			left, right := x0+j*bw+1, x0+(j+1)*bw-1
			b.rect = image.Rect(left, l.plot.Max.Y, right, l.plot.Max.Y)
			if ok && r.Err == nil && r.PerOp > 0 {
				top := min(l.y(float64(r.PerOp)), l.plot.Max.Y-3) // the fastest bar stays visible
				b.rect, b.measured, b.label = image.Rect(left, top, right, l.plot.Max.Y), true, shortRatio(r.PerOp, best[w])
			}
			b.labelBox = l.placeLabel(b)
			l.bars = append(l.bars, b)
		}
	}
	return l
}

// placeLabel is where b's label goes: centred just over the bar (or on
// the axis for "n/a"), moved up a line at a time while it would come
// closer than labelGap to a label already placed.
func (l chartLayout) placeLabel(b chartBar) image.Rectangle {
	w := textWidth(b.label)
	x := (b.rect.Min.X + b.rect.Max.X - w) / 2
	bottom := b.rect.Min.Y - 1
	if !b.measured {
		bottom = b.rect.Max.Y - 1
	}
	box := image.Rect(x, bottom-labelHeight, x+w, bottom)
	for moved := true; moved; {
		moved = false
		for _, o := range l.bars {
			if spaced(o.labelBox).Overlaps(box) {
				box = box.Sub(image.Pt(0, box.Max.Y-o.labelBox.Min.Y))
				moved = true
			}
		}
	}
	return box
}

// labelGap is the least room between two labels side by side, in pixels.
const labelGap = 4

// spaced is r with labelGap more on its left and right.
func spaced(r image.Rectangle) image.Rectangle {
	if r.Empty() {
		return r
	}
	return image.Rect(r.Min.X-labelGap, r.Min.Y, r.Max.X+labelGap, r.Max.Y)
}

// shortRatio is ratio in at most 5 characters (below a million), to fit
// over a bar: 1x, 1.4x, 520x, 1kx, 9.9kx, 10kx, 123kx.
func shortRatio(d, best time.Duration) string {
	x := float64(d) / float64(best)
	switch {
	case x < 1000:
		return ratio(d, best)
	case x < 9950:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", x/1000), ".0") + "kx"
	}
	return fmt.Sprintf("%.0fkx", x/1000)
}

// decade labels 10^k nanoseconds: 1 us, 10 us, ..., 1 s, 10 s.
func decade(k int) string {
	units := []struct {
		exp  int
		name string
	}{{9, "s"}, {6, "ms"}, {3, "us"}, {0, "ns"}}
	for _, u := range units {
		if k >= u.exp || u.exp == 0 {
			return fmt.Sprintf("%.0f %s", math.Pow(10, float64(k-u.exp)), u.name)
		}
	}
	panic("unreachable")
}

// wrap breaks s into lines of at most width characters, at spaces where
// it can (a longer word is cut).
func wrap(s string, width int) []string {
	width = max(width, 1)
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for len(word) > width {
			if line != "" {
				lines, line = append(lines, line), ""
			}
			lines, word = append(lines, word[:width]), word[width:]
		}
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) <= width:
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

func textWidth(s string) int { return font.MeasureString(face, s).Ceil() }

// text draws s with its baseline at y, starting at x.
func text(img draw.Image, x, y int, c color.RGBA, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// verticalText draws s turned a quarter left (read bottom to top), its
// first character's bottom-left corner near (x, y).
func verticalText(img *image.RGBA, x, y int, c color.RGBA, s string) {
	m := face.Metrics()
	h := (m.Ascent + m.Descent).Ceil()
	tmp := image.NewAlpha(image.Rect(0, 0, textWidth(s), h))
	d := font.Drawer{Dst: tmp, Src: image.Opaque, Face: face, Dot: fixed.P(0, m.Ascent.Ceil())}
	d.DrawString(s)
	b := tmp.Bounds()
	for ty := b.Min.Y; ty < b.Max.Y; ty++ {
		for tx := b.Min.X; tx < b.Max.X; tx++ {
			if tmp.AlphaAt(tx, ty).A > 0x80 {
				img.SetRGBA(x-h+ty, y-tx, c)
			}
		}
	}
}
