package engine

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

const wasiModuleName = wasi_snapshot_preview1.ModuleName

// instantiateWASI defines wasi_snapshot_preview1: wazero's functions, with
// poll_oneoff wrapped so absolute-time clock subscriptions work.
func (e *Engine) instantiateWASI(ctx context.Context) error {
	// wazero's own poll_oneoff, to hand the rewritten call to.
	stock, err := wasi_snapshot_preview1.NewBuilder(e.rt).Compile(ctx)
	if err != nil {
		return fmt.Errorf("engine: wasi: %w", err)
	}
	def, ok := stock.ExportedFunctions()["poll_oneoff"]
	if !ok {
		return fmt.Errorf("engine: wasi: wazero has no poll_oneoff")
	}
	orig, ok := def.GoFunction().(api.GoModuleFunction)
	if !ok {
		return fmt.Errorf("engine: wasi: wazero's poll_oneoff is a %T", def.GoFunction())
	}
	e.pollOrig = orig

	b := e.rt.NewHostModuleBuilder(wasiModuleName)
	wasi_snapshot_preview1.NewFunctionExporter().ExportFunctions(b)
	i32 := api.ValueTypeI32
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(e.pollOneoff), []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}).
		WithParameterNames("in", "out", "nsubscriptions", "result.nevents").
		WithResultNames("errno").
		Export("poll_oneoff")
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(schedYield), nil, []api.ValueType{i32}).
		WithResultNames("errno").
		Export(yieldField)
	if _, err := b.Instantiate(ctx); err != nil {
		return fmt.Errorf("engine: wasi: %w", err)
	}
	return nil
}

// WASI preview1 layout of a subscription (48 bytes): userdata u64 at 0, tag
// u8 at 8, and for a clock: id u32 at 16, timeout u64 at 24, precision u64
// at 32, flags u16 at 40.
const (
	subscriptionSize = 48
	eventTypeClock   = 0
	clockAbstime     = 1

	clockRealtime  = 0
	clockMonotonic = 1
)

// pollOneoff turns each absolute clock subscription into the relative one
// that ends at the same time, in place (the guest passes the array as input
// only), then calls wazero's poll_oneoff, whose sleep honours ctx.
func (e *Engine) pollOneoff(ctx context.Context, mod api.Module, stack []uint64) {
	in, n := uint32(stack[0]), uint32(stack[2])
	if n > 0 && n < 1<<16 {
		if buf, ok := mod.Memory().Read(in, n*subscriptionSize); ok {
			for i := uint32(0); i < n; i++ {
				s := buf[i*subscriptionSize : (i+1)*subscriptionSize]
				if s[8] != eventTypeClock {
					continue
				}
				flags := binary.LittleEndian.Uint16(s[40:])
				if flags != clockAbstime {
					continue
				}
				deadline := int64(binary.LittleEndian.Uint64(s[24:]))
				var now int64
				if binary.LittleEndian.Uint32(s[16:]) == clockRealtime {
					now = time.Now().UnixNano()
				} else {
					now = nanotime()
				}
				binary.LittleEndian.PutUint64(s[24:], uint64(max(deadline-now, 0)))
				binary.LittleEndian.PutUint16(s[40:], 0)
			}
		}
	}
	e.pollOrig.Call(ctx, mod, stack)
}

// monoStart anchors the guests' monotonic clock.
var monoStart = time.Now()

// nanotime is the guests' monotonic clock (WithNanotime): nanoseconds since
// monoStart, on Go's monotonic reading.
func nanotime() int64 { return int64(time.Since(monoStart)) }

// nanosleep is a per-instance sleep that wakes when ctx ends.
func nanosleep(ctx context.Context) func(ns int64) {
	return func(ns int64) {
		if ns <= 0 {
			return
		}
		t := time.NewTimer(time.Duration(ns))
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
}
