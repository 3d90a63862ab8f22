package bench

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

func BenchmarkAdapters(b *testing.B) {
	for _, w := range Workloads() {
		for _, a := range Adapters() {
			b.Run(w.Name+"/"+a.Name, func(b *testing.B) {
				if !a.measures(w) {
					b.Skipf("not measured on %s", a.Name)
				}
				p, done, err := a.New()
				if err != nil {
					b.Skipf("%s not available here: %v", a.Name, err)
				}
				defer done()
				ctx := context.Background()
				if w.Once != nil {
					// A Once workload times itself: ns/op is the mean of
					// the times it reports, not of the whole call.
					var sum time.Duration
					n := 0
					for b.Loop() {
						r, err := w.Once(ctx, a, p)
						if errors.Is(err, ErrNoPython) || errors.Is(err, errNoLoopback) || errors.Is(err, sandbox.ErrUnsupported) {
							b.Skip(err)
						} else if err != nil {
							b.Fatal(err)
						}
						sum += r.PerOp
						n++
						if r.PeakRSS > 0 {
							b.ReportMetric(float64(r.PeakRSS>>20), "peak-RSS-MiB")
						}
						if r.PeakPSS > 0 {
							b.ReportMetric(float64(r.PeakPSS>>20), "peak-PSS-MiB")
						}
						if r.Note != "" {
							b.Log(r.Note)
						}
					}
					b.ReportMetric(float64(sum.Nanoseconds())/float64(n), "ns/op")
					return
				}
				var sb = nilSandbox
				if w.Setup != nil {
					if sb, err = w.Setup(ctx, a, p); errors.Is(err, ErrNoPython) || errors.Is(err, errNoLoopback) || errors.Is(err, sandbox.ErrUnsupported) {
						b.Skip(err)
					} else if err != nil {
						b.Fatal(err)
					}
					defer sb.Destroy(ctx)
				}
				b.ResetTimer()
				for b.Loop() {
					if err := w.Op(ctx, p, sb); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
