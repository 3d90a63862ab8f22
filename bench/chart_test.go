package bench

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"testing"
	"time"
)

// fakeResults is a run of four adapters on three workloads, slowest to
// fastest as the real ones tend to be, with holes.
func fakeResults() []Result {
	na := errors.New("not here")
	return []Result{
		{Workload: "create + first `echo hi`", Adapter: "memory", PerOp: 40 * time.Microsecond},
		{Workload: "create + first `echo hi`", Adapter: "local", PerOp: 3 * time.Millisecond},
		{Workload: "create + first `echo hi`", Adapter: "wasm", PerOp: 27 * time.Millisecond},
		{Workload: "create + first `echo hi`", Adapter: "docker", PerOp: 270 * time.Millisecond},
		{Workload: "python3 -c 'print(1)'", Adapter: "memory", Err: na},
		{Workload: "python3 -c 'print(1)'", Adapter: "local", PerOp: 100 * time.Millisecond},
		{Workload: "python3 -c 'print(1)'", Adapter: "wasm", PerOp: 160 * time.Millisecond},
		{Workload: "python3 -c 'print(1)'", Adapter: "docker", Err: na},
		{Workload: ConcurrentName, Adapter: "memory", PerOp: 50 * time.Millisecond, Sandboxes: 100, Command: "echo", PeakRSS: 80 << 20},
		{Workload: ConcurrentName, Adapter: "local", PerOp: 5 * time.Second, Sandboxes: 100, Command: "python3", PeakRSS: 60 << 20, Memory: ChildProcesses},
		{Workload: ConcurrentName, Adapter: "wasm", PerOp: 12 * time.Second, Sandboxes: 100, Command: "python3", PeakRSS: 2300 << 20},
		{Workload: ConcurrentName, Adapter: "docker", PerOp: 30 * time.Second, Sandboxes: 50, Command: "echo", Memory: Elsewhere},
	}
}

func TestChartLayout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		results  []Result
		bars     int      // one per workload and adapter
		measured int      // of them with a bar of their own
		labels   []string // the bars' labels, in order
		lo, hi   int      // the axis, in decades of nanoseconds
	}{
		{
			name:     "four adapters, holes",
			results:  fakeResults(),
			bars:     12,
			measured: 10,
			labels:   []string{"1x", "75x", "675x", "6.8kx", "n/a", "1x", "1.6x", "n/a", "1x", "100x", "240x", "600x"},
			lo:       4, hi: 11,
		},
		{
			name:     "one result",
			results:  []Result{{Workload: "warm `echo hi`", Adapter: "wasm", PerOp: 26 * time.Millisecond}},
			bars:     1,
			measured: 1,
			labels:   []string{"1x"},
			lo:       7, hi: 8,
		},
		{
			name:     "a power of ten",
			results:  []Result{{Workload: "w", Adapter: "a", PerOp: time.Millisecond}, {Workload: "w", Adapter: "b", PerOp: time.Second}},
			bars:     2,
			measured: 2,
			labels:   []string{"1x", "1kx"},
			lo:       6, hi: 9,
		},
		{
			// An adapter with nothing measured has no bars (the table
			// says why below it).
			name:    "nothing measured",
			results: []Result{{Workload: "w", Adapter: "a", Err: errors.New("no")}},
			lo:      3, hi: 9,
		},
		{name: "no results", lo: 3, hi: 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := layOut(tc.results)
			if l.lo != tc.lo || l.hi != tc.hi {
				t.Errorf("axis 10^%d..10^%d ns, want 10^%d..10^%d", l.lo, l.hi, tc.lo, tc.hi)
			}
			if len(l.bars) != tc.bars {
				t.Fatalf("%d bars, want %d", len(l.bars), tc.bars)
			}
			var labels []string
			measured := 0
			for _, b := range l.bars {
				labels = append(labels, b.label)
				if !b.rect.In(l.plot) && !b.rect.Empty() {
					t.Errorf("bar %s/%s %v outside the plot %v", b.workload, b.adapter, b.rect, l.plot)
				}
				if b.rect.Max.Y != l.plot.Max.Y {
					t.Errorf("bar %s/%s does not stand on the axis: %v", b.workload, b.adapter, b.rect)
				}
				if b.measured {
					measured++
					if b.rect.Dy() < 3 || b.rect.Dx() < 3 {
						t.Errorf("bar %s/%s too small to see: %v", b.workload, b.adapter, b.rect)
					}
				} else if b.rect.Dy() != 0 {
					t.Errorf("n/a bar %s/%s has a height: %v", b.workload, b.adapter, b.rect)
				}
			}
			for i, a := range l.bars {
				if !a.labelBox.In(image.Rectangle{Max: l.size}) || a.labelBox.Dx() != textWidth(a.label) {
					t.Errorf("label %q of %s/%s at %v", a.label, a.workload, a.adapter, a.labelBox)
				}
				if a.measured && a.labelBox.Max.Y > a.rect.Min.Y {
					t.Errorf("label %q of %s/%s at %v is not over its bar %v", a.label, a.workload, a.adapter, a.labelBox, a.rect)
				}
				for _, b := range l.bars[i+1:] {
					if spaced(a.labelBox).Overlaps(b.labelBox) {
						t.Errorf("labels of %s/%s %v and %s/%s %v overlap", a.workload, a.adapter, a.labelBox, b.workload, b.adapter, b.labelBox)
					}
				}
			}
			if measured != tc.measured {
				t.Errorf("%d measured bars, want %d", measured, tc.measured)
			}
			if len(tc.labels) > 0 && !reflect.DeepEqual(labels, tc.labels) {
				t.Errorf("labels %q, want %q", labels, tc.labels)
			}
		})
	}
}

func TestChartBarsGrowWithTime(t *testing.T) {
	results := fakeResults()
	l := layOut(results)
	// The bars come workload by workload, adapter by adapter: in the
	// order of these results.
	for i, a := range l.bars {
		for j := i + 1; j < len(l.bars); j++ {
			b, ra, rb := l.bars[j], results[i], results[j]
			if a.workload != ra.Workload || a.adapter != ra.Adapter {
				t.Fatalf("bar %d is %s/%s, result %s/%s", i, a.workload, a.adapter, ra.Workload, ra.Adapter)
			}
			if !a.measured || !b.measured || ra.PerOp == rb.PerOp {
				continue
			}
			if (ra.PerOp < rb.PerOp) != (a.rect.Dy() < b.rect.Dy()) {
				t.Errorf("%s/%s (%v) is %d px, %s/%s (%v) %d px", a.workload, a.adapter, ra.PerOp, a.rect.Dy(), b.workload, b.adapter, rb.PerOp, b.rect.Dy())
			}
		}
	}
	// Within a group bars sit side by side, apart, in the group's span.
	for _, g := range l.groups {
		prev := g.x0
		for _, b := range l.bars {
			if b.workload != g.workload {
				continue
			}
			if b.rect.Min.X < prev || b.rect.Max.X > g.x1 {
				t.Errorf("bar %s/%s at x %d..%d, group %d..%d, previous bar ends at %d", b.workload, b.adapter, b.rect.Min.X, b.rect.Max.X, g.x0, g.x1, prev)
			}
			prev = b.rect.Max.X
		}
	}
}

func TestChartLegendAndLabels(t *testing.T) {
	l := layOut(fakeResults())
	var names []string
	for i, e := range l.legend {
		names = append(names, e.adapter)
		if e.color != Palette[i] {
			t.Errorf("legend %s is %v, want %v", e.adapter, e.color, Palette[i])
		}
		if i > 0 && e.swatch.Min.X <= l.legend[i-1].swatch.Max.X+textWidth(l.legend[i-1].adapter) {
			t.Errorf("legend %s overlaps %s", e.adapter, l.legend[i-1].adapter)
		}
	}
	if want := []string{"memory", "local", "wasm", "docker"}; !reflect.DeepEqual(names, want) {
		t.Errorf("legend %q, want %q", names, want)
	}
	for _, g := range l.groups {
		for _, line := range g.lines {
			if textWidth(line) > g.x1-g.x0 {
				t.Errorf("label line %q (%d px) wider than its group (%d px)", line, textWidth(line), g.x1-g.x0)
			}
		}
	}
	if got := l.groups[0].lines; !reflect.DeepEqual(got, []string{"create + first echo hi"}) {
		t.Errorf("first group's label %q", got)
	}
}

func TestChartPNG(t *testing.T) {
	for _, tc := range []struct {
		name    string
		results []Result
	}{
		{"four adapters, holes", fakeResults()},
		{"one result", []Result{{Workload: "w", Adapter: "a", PerOp: time.Millisecond}}},
		{"nothing measured", []Result{{Workload: "w", Adapter: "a", Err: errors.New("no")}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WritePNG(&buf, tc.results); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds(); got != image.Rect(0, 0, ChartWidth, ChartHeight) {
				t.Fatalf("bounds %v, want %dx%d", got, ChartWidth, ChartHeight)
			}
			counts := colours(img)
			if counts[white] == 0 || counts[ink] == 0 || len(counts) < 3 {
				t.Errorf("looks blank: %d colours", len(counts))
			}
			// Each measured bar is filled with its adapter's colour.
			l := layOut(tc.results)
			for _, b := range l.bars {
				if !b.measured {
					continue
				}
				inside := b.rect.Inset(1)
				for _, p := range []image.Point{inside.Min, {inside.Max.X - 1, inside.Max.Y - 1}, {(inside.Min.X + inside.Max.X) / 2, (inside.Min.Y + inside.Max.Y) / 2}} {
					if got := color.RGBAModel.Convert(img.At(p.X, p.Y)); got != b.color {
						t.Errorf("bar %s/%s at %v is %v, want %v", b.workload, b.adapter, p, got, b.color)
					}
				}
			}
		})
	}
}

// TestChartColours: a chart of four adapters holds four distinct bar
// colours, each in a sizeable area (bars, not only legend swatches).
func TestChartColours(t *testing.T) {
	counts := colours(Chart(fakeResults()))
	for i, c := range Palette[:4] {
		if counts[c] < 2000 {
			t.Errorf("adapter colour %d (%v): %d pixels", i, c, counts[c])
		}
	}
	if counts[Palette[4]] != 0 {
		t.Errorf("a fifth colour in a chart of four adapters")
	}
}

func colours(img image.Image) map[color.RGBA]int {
	counts := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	return counts
}

// TestChartCrowdedLabels: seven adapters with ratios of five digits, all
// close in height, still get labels clear of each other.
func TestChartCrowdedLabels(t *testing.T) {
	var results []Result
	for w := range 6 {
		for a := range 7 {
			d := 30*time.Second + time.Duration(a)*time.Second
			if a == 0 {
				d = 3 * time.Millisecond
			}
			results = append(results, Result{Workload: fmt.Sprintf("workload %d", w), Adapter: fmt.Sprintf("adapter-%d", a), PerOp: d})
		}
	}
	l := layOut(results)
	for i, a := range l.bars {
		if len(a.label) > 5 {
			t.Errorf("label %q longer than 5 characters", a.label)
		}
		for _, b := range l.bars[i+1:] {
			if spaced(a.labelBox).Overlaps(b.labelBox) {
				t.Errorf("labels %q %v and %q %v overlap", a.label, a.labelBox, b.label, b.labelBox)
			}
		}
	}
}

func TestShortRatio(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{10, "1x"}, {14, "1.4x"}, {10000, "1kx"}, {5200, "520x"}, {99400, "9.9kx"}, {99600, "10kx"}, {102760, "10kx"}, {1234500, "123kx"}} {
		if got := shortRatio(tc.d, 10); got != tc.want {
			t.Errorf("shortRatio(%d, 10) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestDecade(t *testing.T) {
	for k, want := range map[int]string{0: "1 ns", 2: "100 ns", 3: "1 us", 5: "100 us", 6: "1 ms", 8: "100 ms", 9: "1 s", 11: "100 s"} {
		if got := decade(k); got != want {
			t.Errorf("decade(%d) = %q, want %q", k, got, want)
		}
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  []string
	}{
		{"create + first echo hi", 30, []string{"create + first echo hi"}},
		{"create + first echo hi", 10, []string{"create +", "first echo", "hi"}},
		{"100 concurrent sandboxes", 12, []string{"100", "concurrent", "sandboxes"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"", 5, nil},
	} {
		if got := wrap(tc.s, tc.width); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// TestChartWidens: a chart of many workloads and columns is wider than
// ChartWidth, every bar at least minBar wide (less its two 1-pixel
// gaps), everything inside the image.
func TestChartWidens(t *testing.T) {
	var results []Result
	for w := range 16 {
		for a := range 7 {
			results = append(results, Result{Workload: fmt.Sprintf("workload number %d of the run", w), Adapter: fmt.Sprint("adapter", a), PerOp: time.Duration(1+a*w) * time.Millisecond})
		}
	}
	l := layOut(results)
	if l.size.X <= ChartWidth || l.size.Y != ChartHeight {
		t.Errorf("size %v, want wider than %d, %d high", l.size, ChartWidth, ChartHeight)
	}
	if len(l.bars) != 16*7 {
		t.Fatalf("%d bars", len(l.bars))
	}
	for _, b := range l.bars {
		if b.rect.Dx() < minBar-2 || !b.rect.In(l.plot.Inset(-1)) || !b.labelBox.In(image.Rectangle{Max: l.size}) {
			t.Errorf("%s/%s: bar %v, label %v, plot %v", b.workload, b.adapter, b.rect, b.labelBox, l.plot)
		}
	}
	if got := Chart(results).Bounds().Size(); got != l.size {
		t.Errorf("image %v, layout %v", got, l.size)
	}
}
