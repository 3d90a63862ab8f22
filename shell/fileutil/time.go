package fileutil

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() {
	command.Register(posixfs.Strictly(fsDate), "date")
	command.Register(posixfs.Strictly(fsSleep), "sleep")
	command.Register(posixfs.Strictly(fsTimeout), "timeout")
	command.Register(posixfs.Strictly(fsNohup), "nohup")
}

// fsLocation is the time zone of $TZ: UTC when unset, empty or UTC/GMT,
// a fixed offset for POSIX forms such as "UTC-3", "EST5" or "<+0530>-5:30"
// (daylight saving rules are ignored), else UTC (zone names would need the
// host's zone files).
func Location(c *command.Call) *time.Location {
	if c == nil || c.Env == nil {
		return time.UTC
	}
	tz, _ := c.Env("TZ")
	tz = strings.TrimPrefix(tz, ":")
	switch tz {
	case "", "UTC", "GMT", "UTC0", "GMT0", "Etc/UTC", "Z":
		return time.UTC
	}
	name, rest := "", tz
	if strings.HasPrefix(tz, "<") {
		i := strings.IndexByte(tz, '>')
		if i < 0 {
			return time.UTC
		}
		name, rest = tz[1:i], tz[i+1:]
	} else {
		i := 0
		for i < len(tz) && (tz[i] >= 'A' && tz[i] <= 'Z' || tz[i] >= 'a' && tz[i] <= 'z') {
			i++
		}
		name, rest = tz[:i], tz[i:]
	}
	if len(name) < 3 || rest == "" {
		return time.UTC
	}
	sign := 1
	switch rest[0] {
	case '+':
		rest = rest[1:]
	case '-':
		sign, rest = -1, rest[1:]
	}
	// The offset ends where the DST part starts.
	end := 0
	for end < len(rest) && (rest[end] >= '0' && rest[end] <= '9' || rest[end] == ':') {
		end++
	}
	parts := strings.Split(rest[:end], ":")
	secs := 0
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || i > 2 {
			return time.UTC
		}
		secs += n * []int{3600, 60, 1}[i]
	}
	// POSIX offsets are west of Greenwich: UTC-3 is three hours ahead.
	return time.FixedZone(name, -sign*secs)
}

// fsDate is date: now (or -d DATE, -r FILE) in the default format, +FORMAT
// (strftime's conversions with GNU's flags), -u, -I[FMT], -R,
// --rfc-3339=FMT. Setting the clock (-s) is not permitted.
func fsDate(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "ud:r:RIs:", Long: map[string]string{
		"utc": "u", "universal": "u", "date": "d:", "reference": "r:", "rfc-email": "R",
		"rfc-2822": "R", "iso-8601": "iso:", "rfc-3339": "rfc3339:", "set": "s:",
	}}, fsDateIsoArgs(args[1:]))

	if err != nil {
		return cmdutil.Usage(c, "date", 1, err)
	}
	loc := Location(c)
	now := time.Now()
	t := now
	format := "%a %b %e %H:%M:%S %Z %Y"
	for _, o := range opts {
		switch o.Key {
		case "u":
			loc = time.UTC
		case "d":
			d, ok := fsParseDate(o.Val, now, loc)
			if !ok {
				posixfs.Warn(c, "date", "invalid date %s", quotearg.Quote(o.Val))
				return command.Exit(1)
			}
			t = d
		case "r":
			fi, err := c.FS.Stat(c.Abs(o.Val))
			if err != nil {
				posixfs.Warn(c, "date", "%s: %s", o.Val, posixfs.ErrText(err))
				return command.Exit(1)
			}
			t = fi.ModTime()
		case "R":
			format = "%a, %d %b %Y %H:%M:%S %z"
		case "I", "iso":
			switch o.Val {
			case "", "date":
				format = "%Y-%m-%d"
			case "hours":
				format = "%Y-%m-%dT%H%:z"
			case "minutes":
				format = "%Y-%m-%dT%H:%M%:z"
			case "seconds":
				format = "%Y-%m-%dT%H:%M:%S%:z"
			case "ns":
				format = "%Y-%m-%dT%H:%M:%S,%N%:z"
			default:
				posixfs.Warn(c, "date", "invalid argument %s for '--iso-8601'", quotearg.Quote(o.Val))
				return command.Exit(1)
			}
		case "rfc3339":
			switch o.Val {
			case "date":
				format = "%Y-%m-%d"
			case "seconds":
				format = "%Y-%m-%d %H:%M:%S%:z"
			case "ns":
				format = "%Y-%m-%d %H:%M:%S.%N%:z"
			default:
				posixfs.Warn(c, "date", "invalid argument %s for '--rfc-3339'", quotearg.Quote(o.Val))
				return command.Exit(1)
			}
		case "s":
			posixfs.Warn(c, "date", "cannot set date: Operation not permitted")
			return command.Exit(1)
		}
	}
	for _, op := range ops {
		if strings.HasPrefix(op, "+") {
			format = op[1:]
			continue
		}
		posixfs.Warn(c, "date", "invalid date %s", quotearg.Quote(op))
		return command.Exit(1)
	}
	fmt.Fprintln(c.Stdout, Strftime(format, t.In(loc)))
	return nil
}

// fsDateIsoArgs turns -I's attached argument ("-Iseconds") into the long
// form, which the parser knows.
func fsDateIsoArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.HasPrefix(a, "-I") {
			a = "--iso-8601=" + a[2:]
			if a == "--iso-8601=" {
				a = "--iso-8601=date"
			}
		}
		out[i] = a
	}
	return out
}

// fsParseDate parses what date -d and touch -d take: "@SECONDS", "now",
// "today", "yesterday", "tomorrow", ISO and RFC dates and times, date's
// own output, a time of day, each optionally followed by relative items
// such as "+1 day", "2 hours ago", "next week".
func fsParseDate(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "@") {
		f, err := strconv.ParseFloat(s[1:], 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e15 {
			return time.Time{}, false
		}
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)), true
	}
	words := strings.Fields(s)
	base := now.In(loc)
	n := 0
	for k := len(words); k > 0; k-- {
		if t, ok := fsAbsDate(strings.Join(words[:k], " "), now, loc); ok {
			base, n = t, k
			break
		}
	}
	t, ok := fsRelDate(base, words[n:])
	if !ok {
		return time.Time{}, false
	}
	return t, true
}

var fsDateLayouts = []string{
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05.999999999 -0700",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 MST",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02",
	"2006/01/02 15:04:05",
	"2006/01/02 15:04",
	"2006/01/02",
	"01/02/2006",
	"20060102",
	"Mon Jan _2 15:04:05 MST 2006",
	"Mon Jan _2 15:04:05 2006",
	"Mon, 02 Jan 2006 15:04:05 -0700",
	"Mon, 02 Jan 2006 15:04:05 MST",
	"02 Jan 2006 15:04:05",
	"02 Jan 2006",
	"2 Jan 2006",
	"Jan 2 2006",
	"Jan 2, 2006",
	"January 2 2006",
	"January 2, 2006",
	"Jan 2 2006 15:04:05",
	"Jan 2 15:04:05 2006",
}

// fsAbsDate parses an absolute date or time of day.
func fsAbsDate(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	day := now.In(loc)
	switch strings.ToLower(s) {
	case "now":
		return now, true
	case "today":
		return day, true
	case "yesterday":
		return day.AddDate(0, 0, -1), true
	case "tomorrow":
		return day.AddDate(0, 0, 1), true
	case "midnight":
		return time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc), true
	case "noon":
		return time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, loc), true
	}
	u := strings.TrimSuffix(strings.TrimSuffix(s, " UTC"), " Z")
	useLoc := loc
	if u != s {
		useLoc = time.UTC
	}
	for _, layout := range fsDateLayouts {
		if t, err := time.ParseInLocation(layout, u, useLoc); err == nil {
			return t, true
		}
	}
	for _, layout := range []string{"15:04:05", "15:04", "3:04pm", "3pm", "3:04 pm"} {
		if t, err := time.ParseInLocation(layout, strings.ToLower(u), useLoc); err == nil {
			return time.Date(day.Year(), day.Month(), day.Day(), t.Hour(), t.Minute(), t.Second(), 0, useLoc), true
		}
	}
	return time.Time{}, false
}

// fsRelDate applies relative items ("+2 days", "3 hours ago", "next
// week", "last month") to base.
func fsRelDate(base time.Time, words []string) (time.Time, bool) {
	t := base
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		n := 1
		switch w {
		case "next":
			i++
		case "last":
			n = -1
			i++
		case "this":
			n = 0
			i++
		case "ago", "and":
			continue
		default:
			if v, err := strconv.Atoi(w); err == nil {
				n = v
				i++
			} else if len(w) > 1 && (w[0] == '+' || w[0] == '-') {
				// "+1day"
				j := 1
				for j < len(w) && w[j] >= '0' && w[j] <= '9' {
					j++
				}
				v, err := strconv.Atoi(w[:j])
				if err != nil || j == len(w) {
					return base, false
				}
				n = v
				words = append(append(append([]string{}, words[:i+1]...), w[j:]), words[i+1:]...)
				i++
			}
		}
		if i >= len(words) {
			return base, false
		}
		unit := strings.TrimSuffix(strings.ToLower(words[i]), "s")
		if i+1 < len(words) && strings.ToLower(words[i+1]) == "ago" {
			n = -n
			i++
		}
		switch unit {
		case "sec", "second":
			t = t.Add(time.Duration(n) * time.Second)
		case "min", "minute":
			t = t.Add(time.Duration(n) * time.Minute)
		case "hour":
			t = t.Add(time.Duration(n) * time.Hour)
		case "day":
			t = t.AddDate(0, 0, n)
		case "week":
			t = t.AddDate(0, 0, 7*n)
		case "fortnight":
			t = t.AddDate(0, 0, 14*n)
		case "month":
			t = t.AddDate(0, n, 0)
		case "year":
			t = t.AddDate(n, 0, 0)
		default:
			return base, false
		}
	}
	return t, true
}

var (
	fsDays   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	fsMonths = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// fsStrftime formats t as GNU date's +FORMAT does, with the flags - _ 0
// ^ # and a field width.
func Strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' || i+1 >= len(format) {
			b.WriteByte(ch)
			continue
		}
		start := i
		j := i + 1
		pad := byte(0)
		upper, swap := false, false
		for j < len(format) && strings.IndexByte("-_0^#", format[j]) >= 0 {
			switch format[j] {
			case '^':
				upper = true
			case '#':
				swap = true
			default:
				pad = format[j]
			}
			j++
		}
		width := -1
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			if width < 0 {
				width = 0
			}
			width = width*10 + int(format[j]-'0')
			if width > 1024 {
				width = 1024
			}
			j++
		}
		colons := 0
		for j < len(format) && format[j] == ':' {
			colons++
			j++
		}
		for j < len(format) && (format[j] == 'E' || format[j] == 'O') {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		conv := format[j]
		i = j
		num := func(v, w int, defPad byte) string {
			if width >= 0 {
				w = width
			}
			p := defPad
			if pad != 0 {
				p = pad
			}
			s := strconv.Itoa(int(math.Abs(float64(v))))
			if p == '-' {
				w = 0
			}
			fill := "0"
			if p == '_' {
				fill = " "
			}
			for len(s) < w-boolInt(v < 0) {
				s = fill + s
			}
			if v < 0 {
				s = "-" + s
			}
			return s
		}
		str := func(s string) string {
			if upper {
				s = strings.ToUpper(s)
			}
			if swap {
				if strings.ToUpper(s) == s {
					s = strings.ToLower(s)
				} else {
					s = strings.ToUpper(s)
				}
			}
			for width > 0 && len(s) < width && pad != '-' {
				if pad == '0' {
					s = "0" + s
				} else {
					s = " " + s
				}
			}
			return s
		}
		hour12 := t.Hour() % 12
		if hour12 == 0 {
			hour12 = 12
		}
		isoYear, isoWeek := t.ISOWeek()
		switch conv {
		case '%':
			b.WriteByte('%')
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'a':
			b.WriteString(str(fsDays[t.Weekday()][:3]))
		case 'A':
			b.WriteString(str(fsDays[t.Weekday()]))
		case 'b', 'h':
			b.WriteString(str(fsMonths[t.Month()-1][:3]))
		case 'B':
			b.WriteString(str(fsMonths[t.Month()-1]))
		case 'c':
			b.WriteString(str(Strftime("%a %b %e %H:%M:%S %Y", t)))
		case 'C':
			b.WriteString(num(t.Year()/100, 2, '0'))
		case 'd':
			b.WriteString(num(t.Day(), 2, '0'))
		case 'D':
			b.WriteString(str(Strftime("%m/%d/%y", t)))
		case 'e':
			b.WriteString(num(t.Day(), 2, '_'))
		case 'F':
			b.WriteString(str(Strftime("%Y-%m-%d", t)))
		case 'g':
			b.WriteString(num(isoYear%100, 2, '0'))
		case 'G':
			b.WriteString(num(isoYear, 4, '0'))
		case 'H':
			b.WriteString(num(t.Hour(), 2, '0'))
		case 'I':
			b.WriteString(num(hour12, 2, '0'))
		case 'j':
			b.WriteString(num(t.YearDay(), 3, '0'))
		case 'k':
			b.WriteString(num(t.Hour(), 2, '_'))
		case 'l':
			b.WriteString(num(hour12, 2, '_'))
		case 'm':
			b.WriteString(num(int(t.Month()), 2, '0'))
		case 'M':
			b.WriteString(num(t.Minute(), 2, '0'))
		case 'N':
			ns := fmt.Sprintf("%09d", t.Nanosecond())
			if width > 0 && width < 9 {
				ns = ns[:width]
			}
			b.WriteString(ns)
		case 'p':
			ampm := "AM"
			if t.Hour() >= 12 {
				ampm = "PM"
			}
			if swap {
				ampm = strings.ToLower(ampm)
				swap = false
			}
			b.WriteString(str(ampm))
		case 'P':
			ampm := "am"
			if t.Hour() >= 12 {
				ampm = "pm"
			}
			b.WriteString(str(ampm))
		case 'q':
			b.WriteString(num((int(t.Month())-1)/3+1, 1, '0'))
		case 'r':
			b.WriteString(str(Strftime("%I:%M:%S %p", t)))
		case 'R':
			b.WriteString(str(Strftime("%H:%M", t)))
		case 's':
			b.WriteString(num(int(t.Unix()), 1, '0'))
		case 'S':
			b.WriteString(num(t.Second(), 2, '0'))
		case 'T', 'X':
			b.WriteString(str(Strftime("%H:%M:%S", t)))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			b.WriteString(num(wd, 1, '0'))
		case 'U':
			b.WriteString(num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0'))
		case 'V':
			b.WriteString(num(isoWeek, 2, '0'))
		case 'w':
			b.WriteString(num(int(t.Weekday()), 1, '0'))
		case 'W':
			b.WriteString(num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0'))
		case 'x':
			b.WriteString(str(Strftime("%m/%d/%y", t)))
		case 'y':
			b.WriteString(num(t.Year()%100, 2, '0'))
		case 'Y':
			b.WriteString(num(t.Year(), 4, '0'))
		case 'z':
			_, off := t.Zone()
			sign := byte('+')
			if off < 0 {
				sign, off = '-', -off
			}
			h, m, s := off/3600, off/60%60, off%60
			var z string
			switch colons {
			case 0:
				z = fmt.Sprintf("%c%02d%02d", sign, h, m)
			case 1:
				z = fmt.Sprintf("%c%02d:%02d", sign, h, m)
			case 2:
				z = fmt.Sprintf("%c%02d:%02d:%02d", sign, h, m, s)
			default:
				z = fmt.Sprintf("%c%02d", sign, h)
				if m != 0 || s != 0 {
					z = fmt.Sprintf("%c%02d:%02d", sign, h, m)
				}
			}
			b.WriteString(z)
		case 'Z':
			name, _ := t.Zone()
			b.WriteString(str(name))
		default:
			b.WriteString(format[start : j+1])
		}
	}
	return b.String()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fsDuration parses sleep's and timeout's durations: a number (maybe
// fractional) with an optional suffix s, m, h or d; "inf" or "infinity"
// for ever (-1).
func fsDuration(s string) (time.Duration, bool) {
	if s == "inf" || s == "infinity" {
		return -1, true
	}
	unit := time.Second
	if s != "" {
		switch s[len(s)-1] {
		case 's':
			s = s[:len(s)-1]
		case 'm':
			unit, s = time.Minute, s[:len(s)-1]
		case 'h':
			unit, s = time.Hour, s[:len(s)-1]
		case 'd':
			unit, s = 24*time.Hour, s[:len(s)-1]
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsNaN(f) || strings.ContainsAny(s, "xXpP") {
		return 0, false
	}
	d := f * float64(unit)
	if d > float64(math.MaxInt64) || math.IsInf(f, 1) {
		return -1, true
	}
	return time.Duration(d), true
}

// fsSleep is sleep: the sum of its durations (see fsDuration), ended
// early by ctx.
func fsSleep(ctx context.Context, c *command.Call, args []string) error {
	if len(args) < 2 {
		return cmdutil.Usage(c, "sleep", 1, cmdutil.Usagef("missing operand"))
	}
	var total time.Duration
	forever := false
	for _, a := range args[1:] {
		if a == "--" {
			continue
		}
		d, ok := fsDuration(a)
		if !ok {
			return cmdutil.Usage(c, "sleep", 1, cmdutil.Usagef("invalid time interval %s", quotearg.Quote(a)))
		}
		if d < 0 {
			forever = true
			continue
		}
		total += d
		if total < 0 {
			forever = true
		}
	}
	if forever {
		<-ctx.Done()
		return ctx.Err()
	}
	timer := time.NewTimer(total)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fsTimeout is timeout: run COMMAND and stop it after DURATION, with
// status 124 (128+9 for -s KILL; 128+signal with --preserve-status);
// -k, --foreground and -v are accepted. Status 125 for timeout's own
// errors, 126 and 127 when the command cannot run.
// fsNohup is GNU nohup in the sandbox, where no stream is a terminal: it
// runs the command as it is (so it writes no nohup.out and says nothing),
// reporting one that cannot start as nohup does (127, 126); status 125
// for its own errors.
func fsNohup(ctx context.Context, c *command.Call, args []string) error {
	_, rest, err := cmdutil.Parse(cmdutil.Flags{StopAtOperand: true}, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "nohup", 125, err)
	}
	if len(rest) == 0 {
		return cmdutil.Usage(c, "nohup", 125, cmdutil.Usagef("missing operand"))
	}
	return notRun(c, "nohup", rest[0], c.Exec(ctx, rest))
}

func fsTimeout(ctx context.Context, c *command.Call, args []string) error {
	opts, rest, err := cmdutil.Parse(cmdutil.Flags{Short: "s:k:v", StopAtOperand: true, Long: map[string]string{
		"signal": "s:", "kill-after": "k:", "preserve-status": "preserve", "foreground": "fg", "verbose": "v",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "timeout", 125, err)
	}
	sig, preserve, verbose := "TERM", false, false
	for _, o := range opts {
		switch o.Key {
		case "s":
			sig = strings.TrimPrefix(strings.ToUpper(o.Val), "SIG")
		case "preserve":
			preserve = true
		case "v":
			verbose = true
		case "k":
			if _, ok := fsDuration(o.Val); !ok {
				return cmdutil.Usage(c, "timeout", 125, cmdutil.Usagef("invalid time interval %s", quotearg.Quote(o.Val)))
			}
		}
	}
	if len(rest) < 2 {
		if len(rest) == 0 {
			return cmdutil.Usage(c, "timeout", 125, cmdutil.Usagef("missing operand"))
		}
		return cmdutil.Usage(c, "timeout", 125, cmdutil.Usagef("missing operand after %s", quotearg.Quote(rest[0])))
	}
	d, ok := fsDuration(rest[0])
	if !ok {
		return cmdutil.Usage(c, "timeout", 125, cmdutil.Usagef("invalid time interval %s", quotearg.Quote(rest[0])))
	}
	cctx := ctx
	if d > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	err = c.Exec(cctx, rest[1:])
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if cctx.Err() != nil {
		if verbose {
			posixfs.Warn(c, "timeout", "sending signal %s to command %s", sig, quotearg.Quote(rest[1]))
		}
		num := map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "KILL": 9, "USR1": 10, "USR2": 12, "TERM": 15}[sig]
		if n, err := strconv.Atoi(sig); err == nil {
			num = n
		}
		switch {
		case preserve:
			return command.Exit(128 + num)
		case num == 9:
			return command.Exit(137)
		}
		return command.Exit(command.StatusTimeout)
	}
	return notRun(c, "timeout", rest[1], err)
}

// notRun is err, what c.Exec returned for the command named cmd, reported
// as coreutils' timeout and nohup report a command that could not start
// ("me: failed to run command 'x': No such file or directory", status
// 127, or 126); any other err as it is.
func notRun(c *command.Call, me, cmd string, err error) error {
	var nr interface{ NotRun() string }
	if !errors.As(err, &nr) {
		return err
	}
	status, _ := command.StatusOf(err)
	msg := nr.NotRun()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	if status == 127 {
		msg = "No such file or directory"
	}
	posixfs.Warn(c, me, "failed to run command %s: %s", quotearg.Quote(cmd), msg)
	return command.Exit(status)
}
