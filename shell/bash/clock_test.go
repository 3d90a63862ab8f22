package bash

import (
	"testing"
	"time"
)

// TestFormatTime: TIMEFORMAT's expansion on times the compat corpus
// cannot pin down (bash's own runs vary): minutes, digits cut not rounded,
// %P, and the characters bash refuses.
func TestFormatTime(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		format          string
		real, user, sys time.Duration
		want            string
		bad             byte
		ok              bool
	}{
		{format: bashTimeFormat, real: 61*time.Second + 500*ms, want: "\nreal\t1m1.500s\nuser\t0m0.000s\nsys\t0m0.000s", ok: true},
		{format: posixTimeFormat, real: 2*time.Second + 999*ms, want: "real 2.99\nuser 0.00\nsys 0.00", ok: true},
		{format: "%R %3R %2R %1R %0R", real: 102900 * time.Microsecond, want: "0.102 0.102 0.10 0.1 0", ok: true},
		{format: "%lR|%0lR|%9lR", real: 3725 * time.Second, want: "62m5.000s|62m5s|62m5.000s", ok: true},
		{format: "%P%%", real: 2 * time.Second, user: 500 * ms, sys: 250 * ms, want: "37.50%", ok: true},
		{format: "%P", want: "0.00", ok: true},
		{format: "%E|%U|%S", real: ms, user: 2 * ms, sys: 3 * ms, want: "0.001|0.002|0.003", ok: true},
		{format: "a%", want: "a%", ok: true},
		{format: "%q", bad: 'q'},
		{format: "x%l|", bad: '|'},
		{format: "%3", bad: 0},
		{format: "%l", bad: 0},
	}
	for _, tt := range tests {
		got, bad, ok := formatTime(tt.format, tt.real, tt.user, tt.sys)
		if got != tt.want || bad != tt.bad || ok != tt.ok {
			t.Errorf("formatTime(%q) = %q, %q, %v; want %q, %q, %v", tt.format, got, bad, ok, tt.want, tt.bad, tt.ok)
		}
	}
}
