package bash

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// The dynamic variables bash computes when read: $RANDOM (random.go),
// $SECONDS, $EPOCHSECONDS, $EPOCHREALTIME and $SRANDOM. Each loses that
// once unset, and is then a plain variable, even when set again (bash's
// "if it is unset, it loses its special properties").
const (
	dynRandom uint8 = 1 << iota
	dynSeconds
	dynEpochSeconds
	dynEpochRealtime
	dynSRandom
)

// dynBits maps a dynamic variable's name to its bit.
var dynBits = map[string]uint8{
	"RANDOM":        dynRandom,
	"SECONDS":       dynSeconds,
	"EPOCHSECONDS":  dynEpochSeconds,
	"EPOCHREALTIME": dynEpochRealtime,
	"SRANDOM":       dynSRandom,
}

// dynState is a shell's state of its dynamic variables, copied into its
// subshells.
type dynState struct {
	off uint8 // the dynamic variables unset, by bit
	// $SECONDS is secBase plus the whole seconds of the clock since
	// secFrom (both whole seconds since the epoch, as bash's time(0)):
	// the shell's start, or the last SECONDS=n, which sets secBase.
	secBase, secFrom int64
}

// dynamic reports whether name is a dynamic variable still special here.
func (r *Runner) dynamic(name string) bool {
	bit, ok := dynBits[name]
	return ok && r.dyn.off&bit == 0
}

// dynValue is a dynamic variable's value (dynamic(name) holds).
func (r *Runner) dynValue(name string) string {
	switch name {
	case "RANDOM":
		return strconv.Itoa(r.random())
	case "SECONDS":
		return strconv.FormatInt(r.dyn.secBase+time.Now().Unix()-r.dyn.secFrom, 10)
	case "EPOCHSECONDS":
		return strconv.FormatInt(time.Now().Unix(), 10)
	case "EPOCHREALTIME":
		t := time.Now()
		return fmt.Sprintf("%d.%06d", t.Unix(), t.Nanosecond()/1000)
	case "SRANDOM":
		return strconv.FormatUint(uint64(rand.Uint32()), 10)
	}
	return ""
}

// assignDynamic is NAME=val into v for a dynamic variable: RANDOM seeds
// its generator, SECONDS=n (arithmetic) counts on from n; an assignment to
// EPOCHSECONDS, EPOCHREALTIME or SRANDOM changes nothing, as in bash.
func (r *Runner) assignDynamic(name string, v *vars.Var, val string) error {
	switch name {
	case "RANDOM":
		return r.assignRandom(v, val)
	case "SECONDS":
		n, err := r.arithString(val)
		if err != nil {
			r.errf("%v", err)
			return nil
		}
		r.dyn.secBase, r.dyn.secFrom = n, time.Now().Unix()
		v.Str, v.Set = strconv.FormatInt(n, 10), true
	}
	return nil
}

// undynamic makes name a plain variable from now on (unset name).
func (r *Runner) undynamic(name string) {
	r.dyn.off |= dynBits[name]
}

// Formats of the time keyword's report.
const (
	bashTimeFormat  = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
	posixTimeFormat = "real %2R\nuser %2U\nsys %2S"
)

// timeClause runs `time [-p] pipeline` and reports on the shell's stderr
// the pipeline's real time in $TIMEFORMAT's format (bash's by default,
// POSIX's with -p; nothing when TIMEFORMAT is set and empty). User and
// system times are reported as zero: the sandbox does not account CPU
// time per command.
func (r *Runner) timeClause(c *syntax.TimeClause) {
	start := time.Now()
	var real time.Duration
	if c.Stmt != nil {
		r.stmt(c.Stmt)
		real = time.Since(start)
	}
	if r.exiting {
		return
	}
	format := bashTimeFormat
	if c.PosixFormat {
		format = posixTimeFormat
	} else if v, set := r.getVar("TIMEFORMAT"); set {
		format = v
	}
	if format == "" {
		return
	}
	out, bad, ok := formatTime(format, real, 0, 0)
	if !ok {
		r.errf("TIMEFORMAT: `%c': invalid format character", bad)
		return
	}
	r.stderr().Write([]byte(out + "\n"))
}

// formatTime expands a TIMEFORMAT format as bash 5.2 does
// (print_formatted_time): %[p][l]R, U and S (E as R) with p places of
// seconds (0-3, default 3; digits cut, not rounded) and with l as MmS.FFFs,
// %P the CPU share ((user+sys)/real as a percentage, two places), %% a
// percent sign; a % at the end is itself. Another character after % (NUL
// for none) is returned as bad, with ok false: the report is not printed.
func formatTime(format string, real, user, sys time.Duration) (out string, bad byte, ok bool) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' || i+1 == len(format) {
			b.WriteByte(ch)
			continue
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
			continue
		case 'P':
			cpu := int64(0)
			if real > 0 {
				cpu = int64((user + sys) * 10000 / real)
			}
			b.WriteString(seconds(cpu/100, (cpu%100)*10, 2, false))
			continue
		}
		prec, long := 3, false
		if c := format[i]; c >= '0' && c <= '9' {
			prec = min(int(c-'0'), 3)
			i++
		}
		if i < len(format) && format[i] == 'l' {
			long = true
			i++
		}
		if i == len(format) {
			return "", 0, false // bash reads the terminating NUL
		}
		var d time.Duration
		switch format[i] {
		case 'R', 'E':
			d = real
		case 'U':
			d = user
		case 'S':
			d = sys
		default:
			return "", format[i], false
		}
		b.WriteString(seconds(int64(d/time.Second), int64(d%time.Second/time.Millisecond), prec, long))
	}
	return b.String(), 0, true
}

// seconds is bash's mkfmt: sec (as minutes and seconds with long) and
// prec digits of ms, a thousandth count, after the point.
func seconds(sec, ms int64, prec int, long bool) string {
	var b strings.Builder
	if long {
		b.WriteString(strconv.FormatInt(sec/60, 10))
		b.WriteByte('m')
		sec %= 60
	}
	b.WriteString(strconv.FormatInt(sec, 10))
	if prec > 0 {
		b.WriteByte('.')
		frac := strconv.FormatInt(1000+ms, 10)[1:] // three digits
		b.WriteString(frac[:prec])
	}
	if long {
		b.WriteByte('s')
	}
	return b.String()
}
