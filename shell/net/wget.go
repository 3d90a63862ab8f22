package net

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
)

// wgetVersion is the GNU Wget this one answers as.
const wgetVersion = "1.21.3"

const wgetUsage = "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n"

// Exit codes of GNU Wget.
const (
	wgetGeneric = 1
	wgetParse   = 2
	wgetIO      = 3
	wgetNetwork = 4
	wgetSSL     = 5
	wgetAuth    = 6
	wgetServer  = 8
)

type wgetOpts struct {
	urls      []string
	output    string
	outputSet bool
	quiet     bool
	noVerbose bool
	headers   []string
	method    string
	body      []byte
	bodySet   bool
	user      string
	password  string
	agent     string
	timeout   time.Duration
	tries     int
	prefix    string
	server    bool
	maxRedir  int
}

// wgetMain is GNU Wget for HTTP(S) URLs: it saves each to a file named
// after the URL (or -O FILE, -O - for stdout) and prints its log to stderr
// as wget does (-q: none, -nv: one line).
func wgetMain(ctx context.Context, c *command.Call, args []string) error {
	o := &wgetOpts{agent: "Wget/" + wgetVersion, tries: 20, maxRedir: 20}
	withArg := map[string]func(string) error{
		"output-document":  func(v string) error { o.output, o.outputSet = v, true; return nil },
		"header":           func(v string) error { o.headers = append(o.headers, v); return nil },
		"post-data":        func(v string) error { o.method, o.body, o.bodySet = "POST", []byte(v), true; return nil },
		"body-data":        func(v string) error { o.body, o.bodySet = []byte(v), true; return nil },
		"method":           func(v string) error { o.method = strings.ToUpper(v); return nil },
		"user":             func(v string) error { o.user = v; return nil },
		"http-user":        func(v string) error { o.user = v; return nil },
		"password":         func(v string) error { o.password = v; return nil },
		"http-password":    func(v string) error { o.password = v; return nil },
		"user-agent":       func(v string) error { o.agent = v; return nil },
		"directory-prefix": func(v string) error { o.prefix = v; return nil },
		"output-file":      func(string) error { return nil },
		"append-output":    func(string) error { return nil },
		"max-redirect":     func(v string) error { n, err := strconv.Atoi(v); o.maxRedir = n; return err },
		"tries":            func(v string) error { n, err := strconv.Atoi(v); o.tries = n; return err },
		"post-file": func(v string) error {
			b, err := readFile(c, v)
			if err != nil {
				return wgetMessage(fmt.Sprintf("Couldn't open %s: %s", v, errText(err)))
			}
			o.method, o.body, o.bodySet = "POST", b, true
			return nil
		},
		"timeout": func(v string) error {
			f, err := strconv.ParseFloat(v, 64)
			o.timeout = time.Duration(f * float64(time.Second))
			return err
		},
	}
	noArg := map[string]func(){
		"quiet":                func() { o.quiet = true },
		"no-verbose":           func() { o.noVerbose = true },
		"verbose":              func() { o.quiet, o.noVerbose = false, false },
		"server-response":      func() { o.server = true },
		"no-check-certificate": func() {},
		"continue":             func() {},
		"no-clobber":           func() {},
		"show-progress":        func() {},
		"no-cache":             func() {},
		"https-only":           func() {},
		"content-disposition":  func() {},
		"no-hsts":              func() {},
		"inet4-only":           func() {},
	}
	short := map[byte]string{'O': "output-document", 'q': "quiet", 'S': "server-response", 'U': "user-agent",
		'T': "timeout", 't': "tries", 'P': "directory-prefix", 'c': "continue", 'v': "verbose", 'o': "output-file",
		'a': "append-output", '4': "inet4-only"}
	bad := func(msg string) error {
		fmt.Fprintf(c.Stderr, "wget: %s\n%s", msg, wgetUsage)
		return command.Exit(wgetParse)
	}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			o.urls = append(o.urls, rest[i+1:]...)
			i = len(rest)
		case a == "-nv":
			o.noVerbose = true
		case a == "-nc" || a == "-nH" || a == "-np" || a == "-nd":
		case strings.HasPrefix(a, "--"):
			name, val, has := strings.Cut(a[2:], "=")
			if f, ok := noArg[name]; ok {
				f()
				continue
			}
			f, ok := withArg[name]
			if !ok {
				return bad(fmt.Sprintf("unrecognized option '%s'", a))
			}
			if !has {
				if i+1 >= len(rest) {
					return bad(fmt.Sprintf("option '%s' requires an argument", a))
				}
				i++
				val = rest[i]
			}
			if err := f(val); err != nil {
				fmt.Fprintf(c.Stderr, "wget: %v\n", err)
				return command.Exit(wgetParse)
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				name, ok := short[a[j]]
				if !ok {
					return bad(fmt.Sprintf("invalid option -- '%c'", a[j]))
				}
				if f, ok := noArg[name]; ok {
					f()
					continue
				}
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(rest) {
						return bad(fmt.Sprintf("option requires an argument -- '%c'", a[j]))
					}
					i++
					val = rest[i]
				}
				if err := withArg[name](val); err != nil {
					fmt.Fprintf(c.Stderr, "wget: %v\n", err)
					return command.Exit(wgetParse)
				}
				break
			}
		default:
			o.urls = append(o.urls, a)
		}
	}
	if len(o.urls) == 0 {
		fmt.Fprintf(c.Stderr, "wget: missing URL\n%s", wgetUsage)
		return command.Exit(wgetGeneric)
	}
	var out io.Writer
	if o.outputSet {
		if o.output == "-" {
			out = c.Stdout
		} else {
			f, err := openNew(c, c.Abs(o.output))
			if err != nil {
				fmt.Fprintf(c.Stderr, "%s: %s\n", o.output, errText(err))
				return command.Exit(wgetIO)
			}
			defer f.Close()
			out = f
		}
	}
	code := 0
	for _, u := range o.urls {
		if n := o.get(ctx, c, u, out); n != 0 {
			code = n
		}
	}
	return command.Exit(code)
}

func (o *wgetOpts) logf(c *command.Call, format string, a ...any) {
	if !o.quiet && !o.noVerbose {
		fmt.Fprintf(c.Stderr, format, a...)
	}
}

func wgetStamp() string { return time.Now().Format("2006-01-02 15:04:05") }

// get fetches one URL, following redirects, and returns wget's exit code.
func (o *wgetOpts) get(ctx context.Context, c *command.Call, raw string, out io.Writer) int {
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	u, err := ParseURL(raw)
	if err != nil {
		if !o.quiet {
			fmt.Fprintf(c.Stderr, "%s: Unsupported scheme.\n", raw)
		}
		return wgetGeneric
	}
	req := &Request{Method: "GET", URL: u}
	if o.method != "" {
		req.Method = o.method
	}
	if o.bodySet {
		req.Body = o.body
	}
	custom := map[string]bool{}
	var extra []Field
	for _, h := range o.headers {
		if name, val, ok := strings.Cut(h, ":"); ok {
			custom[strings.ToLower(strings.TrimSpace(name))] = true
			extra = append(extra, Field{strings.TrimSpace(name), strings.TrimSpace(val)})
		}
	}
	add := func(n, v string) {
		if !custom[strings.ToLower(n)] {
			req.Header = append(req.Header, Field{n, v})
		}
	}
	add("User-Agent", o.agent)
	add("Accept", "*/*")
	add("Accept-Encoding", "identity")
	if o.user != "" || o.password != "" {
		add("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(o.user+":"+o.password)))
	}
	add("Connection", "Keep-Alive")
	req.Header = append(req.Header, extra...)
	if req.Body != nil {
		add("Content-Type", "application/x-www-form-urlencoded")
	}
	for redirects := 0; ; redirects++ {
		o.logf(c, "--%s--  %s\n", wgetStamp(), req.URL.String())
		host, port, _ := HostPort(req.URL)
		resp, err := Do(ctx, ChannelDialer(c.FS), req)
		if err != nil {
			return o.netFail(c, host, port, err)
		}
		o.logf(c, "Connecting to %s:%d... connected.\n", host, port)
		status := strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)))
		o.logf(c, "HTTP request sent, awaiting response... ")
		if o.server && !o.quiet {
			o.logf(c, "\n")
			for _, line := range strings.Split(strings.TrimRight(string(resp.RawHeader), "\r\n"), "\n") {
				fmt.Fprintf(c.Stderr, "  %s\n", strings.TrimRight(line, "\r"))
			}
		} else {
			o.logf(c, "%d %s\n", resp.StatusCode, status)
		}
		if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode/100 == 3 && resp.StatusCode != 304 {
			resp.Body.Close()
			o.logf(c, "Location: %s [following]\n", loc)
			if redirects >= o.maxRedir {
				if !o.quiet {
					fmt.Fprintf(c.Stderr, "%d redirections exceeded.\n", o.maxRedir)
				}
				return wgetServer
			}
			next, err := req.URL.Parse(loc)
			if err != nil {
				return wgetGeneric
			}
			r := &Request{Method: req.Method, URL: next, Body: req.Body}
			if resp.StatusCode != 307 && resp.StatusCode != 308 && req.Method == "POST" {
				r.Method, r.Body = "GET", nil
			}
			for _, f := range req.Header {
				if r.Body == nil && strings.EqualFold(f.Name, "Content-Type") {
					continue
				}
				r.Header = append(r.Header, f)
			}
			req = r
			continue
		}
		if resp.StatusCode >= 400 {
			resp.Body.Close()
			if o.noVerbose && !o.quiet {
				fmt.Fprintf(c.Stderr, "%s:\n", req.URL.String())
			}
			if !o.quiet {
				fmt.Fprintf(c.Stderr, "%s ERROR %d: %s.\n\n", wgetStamp(), resp.StatusCode, status)
			}
			if resp.StatusCode == 401 || resp.StatusCode == 407 {
				return wgetAuth
			}
			return wgetServer
		}
		return o.save(c, req, resp, out)
	}
}

// netFail prints a connection failure as wget does.
func (o *wgetOpts) netFail(c *command.Call, host string, port int, err error) int {
	var e *Error
	errors.As(err, &e)
	code := CodeConnect
	msg := err.Error()
	if e != nil {
		code, msg = e.Code, e.Msg
	}
	switch code {
	case CodeResolve:
		o.logf(c, "Resolving %s (%s)... failed: Name or service not known.\n", host, host)
		if !o.quiet {
			fmt.Fprintf(c.Stderr, "wget: unable to resolve host address ‘%s’\n", host)
		}
		return wgetNetwork
	case CodeTLS, CodeCert:
		if !o.quiet {
			fmt.Fprintf(c.Stderr, "ERROR: cannot verify %s's certificate: %s\n", host, msg)
		}
		return wgetSSL
	case CodeTimeout:
		o.logf(c, "Connecting to %s:%d... failed: Connection timed out.\n", host, port)
		return wgetNetwork
	}
	if i := strings.Index(msg, "after 0 ms: "); i >= 0 {
		msg = msg[i+len("after 0 ms: "):]
	}
	if !o.quiet {
		fmt.Fprintf(c.Stderr, "Connecting to %s:%d... failed: %s.\n", host, port, strings.TrimSuffix(msg, "."))
	}
	return wgetNetwork
}

// save writes the body to out, or to the file named after the URL.
func (o *wgetOpts) save(c *command.Call, req *Request, resp *Response, out io.Writer) int {
	defer resp.Body.Close()
	length := "unspecified"
	if resp.ContentLength >= 0 {
		length = strconv.FormatInt(resp.ContentLength, 10) + humanSize(resp.ContentLength)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		length += " [" + ct + "]"
	}
	o.logf(c, "Length: %s\n", length)
	name := o.output
	if out == nil {
		name = path.Base(req.URL.Path)
		if name == "/" || name == "." || strings.HasSuffix(req.URL.Path, "/") {
			name = "index.html"
		}
		dir := c.Dir
		if o.prefix != "" {
			dir = c.Abs(o.prefix)
			_ = c.FS.MkdirAll(dir, 0o755)
		}
		p := path.Join(dir, name)
		for i := 1; ; i++ {
			if _, err := c.FS.Stat(p); err != nil {
				break
			}
			p = path.Join(dir, name) + "." + strconv.Itoa(i)
		}
		if o.prefix != "" {
			name = path.Join(o.prefix, path.Base(p))
		} else {
			name = path.Base(p)
		}
		f, err := openNew(c, p)
		if err != nil {
			if !o.quiet {
				fmt.Fprintf(c.Stderr, "%s: %s\n", name, errText(err))
			}
			return wgetIO
		}
		defer f.Close()
		out = f
	}
	shown := name
	if shown == "-" {
		shown = "STDOUT"
	}
	o.logf(c, "Saving to: ‘%s’\n\n", shown)
	start := time.Now()
	n, err := copyOut(out, resp.Body)
	took := time.Since(start)
	if err != nil {
		var we writeError
		if errors.As(err, &we) {
			if !o.quiet {
				fmt.Fprintf(c.Stderr, "Cannot write to ‘%s’ (%s).\n", shown, we.error)
			}
			return wgetIO
		}
		if !o.quiet {
			fmt.Fprintf(c.Stderr, "%s (%s) - Read error at byte %d (%s).", wgetStamp(), rate(n, took), n, err)
		}
		return wgetNetwork
	}
	o.logf(c, "%s 100%% %s=%.0fs\n\n", progressDots(n), strings.TrimSuffix(rate(n, took), "B/s"), took.Seconds())
	total := strconv.FormatInt(n, 10)
	if resp.ContentLength >= 0 {
		total += "/" + strconv.FormatInt(resp.ContentLength, 10)
	}
	o.logf(c, "%s (%s) - ‘%s’ saved [%s]\n\n", wgetStamp(), rate(n, took), shown, total)
	if o.noVerbose && !o.quiet {
		fmt.Fprintf(c.Stderr, "%s URL:%s [%s] -> \"%s\" [1]\n", wgetStamp(), req.URL.String(), total, shown)
	}
	return 0
}

// humanSize is wget's " (4.6K)" after a length of 1024 or more.
func humanSize(n int64) string {
	if n < 1024 {
		return ""
	}
	units := "KMGT"
	f := float64(n)
	i := -1
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if f < 10 {
		return fmt.Sprintf(" (%.1f%c)", f, units[i])
	}
	return fmt.Sprintf(" (%.0f%c)", f, units[i])
}

// rate is wget's transfer rate.
func rate(n int64, d time.Duration) string {
	s := max(d.Seconds(), 1e-6)
	r := float64(n) / s
	switch {
	case r >= 1<<30:
		return fmt.Sprintf("%.2f GB/s", r/(1<<30))
	case r >= 1<<20:
		return fmt.Sprintf("%.2f MB/s", r/(1<<20))
	case r >= 1<<10:
		return fmt.Sprintf("%.2f KB/s", r/(1<<10))
	}
	return fmt.Sprintf("%.0f B/s", r)
}

// progressDots is wget's dot progress for n bytes, collapsed to its last
// line: "     0K .......... ... ".
func progressDots(n int64) string {
	k := n / 1024
	line := k / 50 * 50
	dots := int(k - line)
	var b strings.Builder
	fmt.Fprintf(&b, "%6dK", line)
	for i := 0; i < 50; i++ {
		if i%10 == 0 {
			b.WriteByte(' ')
		}
		if i < dots {
			b.WriteByte('.')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// wgetMessage is an error printed as wget words it.
type wgetMessage string

func (m wgetMessage) Error() string { return string(m) }
