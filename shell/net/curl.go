package net

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
)

func init() {
	command.Register(curlMain, "curl")
	command.Register(wgetMain, "wget")
}

// curlVersion is the curl this one answers as (the User-Agent).
const curlVersion = "7.88.1"

const curlTry = "curl: try 'curl --help' or 'curl --manual' for more information"

// curlOpts is one curl command line.
type curlOpts struct {
	urls        []string
	outputs     []string // -o, in order
	remoteName  bool     // -O
	method      string   // -X
	headers     []string // -H
	data        [][]byte // -d and friends, joined with &
	dataSet     bool
	form        []string // -F
	get         bool     // -G
	head        bool     // -I
	include     bool     // -i
	location    bool     // -L
	maxRedirs   int
	fail        bool // -f
	failBody    bool // --fail-with-body
	silent      bool // -s
	showError   bool // -S
	verbose     bool // -v
	user        string
	userSet     bool
	agent       *string
	referer     string
	writeOut    string
	maxTime     time.Duration
	connTimeout time.Duration
	retry       int
	retryDelay  time.Duration
	compressed  bool
	createDirs  bool
	json        bool
}

// curlMain is curl: an HTTP(S) client with the options agents use. The
// connection goes through the sandbox's host (see the package doc); -k is
// taken but changes nothing: the host verifies every certificate.
func curlMain(ctx context.Context, c *command.Call, args []string) error {
	o, err := parseCurl(c, args[1:])
	if err != nil {
		var st command.ExitStatus
		if errors.As(err, &st) {
			return err
		}
		fmt.Fprintf(c.Stderr, "curl: %v\n%s\n", err, curlTry)
		return command.Exit(2)
	}
	if len(o.urls) == 0 {
		if len(args) > 1 {
			fmt.Fprintln(c.Stderr, "curl: no URL specified!")
		}
		fmt.Fprintln(c.Stderr, curlTry)
		return command.Exit(2)
	}
	code := 0
	for i, u := range o.urls {
		out := ""
		if i < len(o.outputs) {
			out = o.outputs[i]
		}
		if n := o.transfer(ctx, c, u, out); n != 0 {
			code = n
		}
	}
	return command.Exit(code)
}

// parseCurl reads curl's command line.
func parseCurl(c *command.Call, args []string) (*curlOpts, error) {
	o := &curlOpts{maxRedirs: 50}
	type opt struct {
		arg bool
		set func(v string) error
	}
	num := func(dst *time.Duration, name string) func(string) error {
		return func(v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 {
				return fmt.Errorf("option %s: expected a proper numerical parameter", name)
			}
			*dst = time.Duration(f * float64(time.Second))
			return nil
		}
	}
	flag := func(dst *bool) opt { return opt{set: func(string) error { *dst = true; return nil }} }
	data := func(mode string) opt {
		return opt{arg: true, set: func(v string) error {
			b, err := curlData(c, mode, v)
			if err != nil {
				return err
			}
			o.data = append(o.data, b)
			o.dataSet = true
			return nil
		}}
	}
	long := map[string]opt{
		"output":         {arg: true, set: func(v string) error { o.outputs = append(o.outputs, v); return nil }},
		"remote-name":    flag(&o.remoteName),
		"request":        {arg: true, set: func(v string) error { o.method = v; return nil }},
		"header":         {arg: true, set: func(v string) error { o.headers = append(o.headers, v); return nil }},
		"data":           data("ascii"),
		"data-ascii":     data("ascii"),
		"data-binary":    data("binary"),
		"data-raw":       data("raw"),
		"data-urlencode": data("urlencode"),
		"json": {arg: true, set: func(v string) error {
			b, err := curlData(c, "binary", v)
			o.data, o.dataSet, o.json = append(o.data, b), true, true
			return err
		}},
		"form":              {arg: true, set: func(v string) error { o.form = append(o.form, v); return nil }},
		"form-string":       {arg: true, set: func(v string) error { o.form = append(o.form, "\x00"+v); return nil }},
		"get":               flag(&o.get),
		"head":              flag(&o.head),
		"include":           flag(&o.include),
		"location":          flag(&o.location),
		"fail":              flag(&o.fail),
		"fail-with-body":    flag(&o.failBody),
		"silent":            flag(&o.silent),
		"show-error":        flag(&o.showError),
		"verbose":           flag(&o.verbose),
		"insecure":          {set: func(string) error { return nil }},
		"compressed":        flag(&o.compressed),
		"create-dirs":       flag(&o.createDirs),
		"url":               {arg: true, set: func(v string) error { o.urls = append(o.urls, v); return nil }},
		"user":              {arg: true, set: func(v string) error { o.user, o.userSet = v, true; return nil }},
		"user-agent":        {arg: true, set: func(v string) error { o.agent = &v; return nil }},
		"referer":           {arg: true, set: func(v string) error { o.referer = v; return nil }},
		"write-out":         {arg: true, set: func(v string) error { o.writeOut = v; return nil }},
		"max-time":          {arg: true, set: num(&o.maxTime, "-m")},
		"connect-timeout":   {arg: true, set: num(&o.connTimeout, "--connect-timeout")},
		"retry-delay":       {arg: true, set: num(&o.retryDelay, "--retry-delay")},
		"retry-max-time":    {arg: true, set: func(string) error { return nil }},
		"retry-connrefused": {set: func(string) error { return nil }},
		"retry": {arg: true, set: func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return errors.New("option --retry: expected a proper numerical parameter")
			}
			o.retry = n
			return nil
		}},
		"max-redirs": {arg: true, set: func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return errors.New("option --max-redirs: expected a proper numerical parameter")
			}
			o.maxRedirs = n
			return nil
		}},
		"no-progress-meter": {set: func(string) error { return nil }},
		"progress-bar":      {set: func(string) error { return nil }},
		"http1.1":           {set: func(string) error { return nil }},
	}
	short := map[byte]string{
		'o': "output", 'O': "remote-name", 'X': "request", 'H': "header", 'd': "data",
		'F': "form", 'G': "get", 'I': "head", 'i': "include", 'L': "location",
		'f': "fail", 's': "silent", 'S': "show-error", 'v': "verbose", 'k': "insecure",
		'u': "user", 'A': "user-agent", 'e': "referer", 'w': "write-out", 'm': "max-time",
		'#': "progress-bar",
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			o.urls = append(o.urls, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			op, ok := long[name]
			if !ok {
				return nil, fmt.Errorf("option %s: is unknown", a)
			}
			if op.arg && !hasVal {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("option %s: requires parameter", a)
				}
				i++
				val = args[i]
			}
			if err := op.set(val); err != nil {
				return nil, err
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				name, ok := short[a[j]]
				if !ok {
					return nil, fmt.Errorf("option -%c: is unknown", a[j])
				}
				op := long[name]
				val := ""
				if op.arg {
					if j+1 < len(a) {
						val = a[j+1:]
					} else if i+1 < len(args) {
						i++
						val = args[i]
					} else {
						return nil, fmt.Errorf("option -%c: requires parameter", a[j])
					}
					j = len(a)
				}
				if err := op.set(val); err != nil {
					return nil, err
				}
			}
		default:
			o.urls = append(o.urls, a)
		}
	}
	return o, nil
}

// curlData reads one -d (ascii), --data-binary, --data-raw or
// --data-urlencode value.
func curlData(c *command.Call, mode, v string) ([]byte, error) {
	readAt := func(name string) ([]byte, error) {
		if name == "-" {
			return io.ReadAll(c.Stdin)
		}
		b, err := readFile(c, name)
		if err != nil {
			fmt.Fprintf(c.Stderr, "Warning: Couldn't read data from file \"%s\", this makes an empty \nWarning: POST.\n", name)
			return nil, nil
		}
		return b, nil
	}
	switch mode {
	case "raw":
		return []byte(v), nil
	case "binary", "ascii":
		if name, ok := strings.CutPrefix(v, "@"); ok {
			b, err := readAt(name)
			if mode == "ascii" {
				b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r"), nil), []byte("\n"), nil)
			}
			return b, err
		}
		return []byte(v), nil
	}
	// urlencode: content, =content, name=content, @file, name@file
	if name, content, ok := strings.Cut(v, "="); ok {
		if name == "" {
			return []byte(formEscape(content)), nil
		}
		return []byte(name + "=" + formEscape(content)), nil
	}
	if name, file, ok := strings.Cut(v, "@"); ok {
		b, err := readAt(file)
		if name == "" {
			return []byte(formEscape(string(b))), err
		}
		return []byte(name + "=" + formEscape(string(b))), err
	}
	return []byte(formEscape(v)), nil
}

// formEscape is --data-urlencode's encoding: curlEscape with spaces as "+".
func formEscape(s string) string { return strings.ReplaceAll(curlEscape(s), "%20", "+") }

// openNew creates (or truncates) the file p for writing; its folder must
// be there, as open(2) needs.
func openNew(c *command.Call, p string) (io.WriteCloser, error) {
	if fi, err := c.FS.Stat(path.Dir(p)); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, &os.PathError{Op: "open", Path: p, Err: syscall.ENOTDIR}
	}
	return c.FS.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// curlEscape is curl_easy_escape: every byte but ALPHA, DIGIT and -._~ in %XX.
func curlEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte("-._~", ch) >= 0 {
			b.WriteByte(ch)
		} else {
			fmt.Fprintf(&b, "%%%02X", ch)
		}
	}
	return b.String()
}

func readFile(c *command.Call, name string) ([]byte, error) {
	f, err := c.FS.Open(c.Abs(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// curlResult is what -w reports of one transfer.
type curlResult struct {
	code      int // HTTP status, 0 when none
	url       string
	redirects int
	redirect  string // the Location not followed
	size      int64
	header    int64
	ctype     string
	method    string
	scheme    string
	remote    string
	exit      int
	errmsg    string
	version   string
	start     time.Time
	headers   map[string]string
}

// transfer runs one URL and returns curl's exit code.
func (o *curlOpts) transfer(ctx context.Context, c *command.Call, rawURL, out string) int {
	res := &curlResult{start: time.Now(), url: rawURL}
	code := o.attempts(ctx, c, rawURL, out, res)
	res.exit = code
	if o.writeOut != "" {
		o.writeOutput(c, res)
	}
	return code
}

// attempts runs a transfer with --retry.
func (o *curlOpts) attempts(ctx context.Context, c *command.Call, rawURL, out string, res *curlResult) int {
	delay := time.Second
	if o.retryDelay > 0 {
		delay = o.retryDelay
	}
	for left := o.retry; ; left-- {
		code, transient, err := o.once(ctx, c, rawURL, out, res)
		if code == 0 {
			return 0
		}
		if transient && left > 0 {
			if !o.silent {
				what := "timeout"
				if code != CodeTimeout {
					what = "HTTP error"
				}
				fmt.Fprintf(c.Stderr, "Warning: Problem : %s. Will retry in %d seconds. %d retries left.\n", what, int(delay/time.Second), left)
			}
			select {
			case <-ctx.Done():
				return CodeTimeout
			case <-time.After(delay):
			}
			if o.retryDelay == 0 {
				delay *= 2
			}
			continue
		}
		if err != nil {
			res.errmsg = err.Error()
			if !o.silent || o.showError {
				fmt.Fprintf(c.Stderr, "curl: (%d) %s\n", code, err.Error())
			}
		}
		return code
	}
}

// once runs one attempt: the request and its redirects. It returns the
// exit code, whether --retry should try again, and the error to print.
func (o *curlOpts) once(ctx context.Context, c *command.Call, rawURL, out string, res *curlResult) (int, bool, error) {
	start := time.Now()
	if o.maxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.maxTime)
		defer cancel()
	}
	u, err := ParseURL(rawURL)
	if err != nil {
		return errCode(err), false, err
	}
	req, err := o.request(c, u)
	if err != nil {
		return errCode(err), false, err
	}
	res.redirects = 0
	var w io.Writer = c.Stdout
	var file io.WriteCloser
	openOut := func() error {
		if out == "" && o.remoteName {
			out = path.Base(u.Path)
			if u.Path == "/" || strings.HasSuffix(u.Path, "/") || out == "" {
				return &Error{CodeWrite, "Failed writing received data to disk/application"}
			}
		}
		if out == "" || out == "-" || file != nil {
			return nil
		}
		p := c.Abs(out)
		if o.createDirs {
			_ = c.FS.MkdirAll(path.Dir(p), 0o755)
		}
		f, err := openNew(c, p)
		if err != nil {
			if !o.silent {
				fmt.Fprintf(c.Stderr, "Warning: Failed to open the file %s: %s\n", out, errText(err))
			}
			return &Error{CodeWrite, "Failure writing output to destination"}
		}
		file, w = f, f
		return nil
	}
	defer func() {
		if file != nil {
			file.Close()
		}
	}()
	if o.remoteName && out == "" {
		if err := openOut(); err != nil {
			return errCode(err), false, err
		}
	}
	for {
		if o.verbose {
			host, port, _ := HostPort(req.URL)
			fmt.Fprintf(c.Stderr, "*   Trying %s:%d...\n", host, port)
		}
		resp, err := Do(ctx, o.dialer(c), req)
		if err != nil {
			code := errCode(err)
			if code == CodeTimeout {
				err = &Error{CodeTimeout, fmt.Sprintf("Operation timed out after %d milliseconds with 0 bytes received", time.Since(start).Milliseconds())}
			}
			return code, code == CodeTimeout, err
		}
		res.code = resp.StatusCode
		res.url = req.URL.String()
		res.method = req.Method
		res.scheme = req.URL.Scheme
		res.remote = resp.Addr
		res.header += int64(len(resp.RawHeader))
		res.ctype = resp.Header.Get("Content-Type")
		res.version = strings.TrimPrefix(resp.Proto, "HTTP/")
		res.headers = map[string]string{}
		for k, v := range resp.Header {
			res.headers[strings.ToLower(k)] = strings.Join(v, ", ")
		}
		if o.verbose {
			verbose(c, req, resp)
		}
		loc := resp.Header.Get("Location")
		redirect := loc != "" && resp.StatusCode/100 == 3 && resp.StatusCode != 304
		if redirect && !o.location {
			if next, err := req.URL.Parse(loc); err == nil {
				res.redirect = next.String()
			}
		}
		if err := openOut(); err != nil {
			resp.Body.Close()
			return errCode(err), false, err
		}
		failed := (o.fail || o.failBody) && resp.StatusCode >= 400
		if o.include || o.head {
			if !(failed && !o.failBody) {
				w.Write(resp.RawHeader)
			}
		}
		if redirect && o.location {
			resp.Body.Close()
			res.redirects++
			if o.maxRedirs >= 0 && res.redirects > o.maxRedirs {
				return CodeTooManyRedirects, false, &Error{CodeTooManyRedirects, fmt.Sprintf("Maximum (%d) redirects followed", o.maxRedirs)}
			}
			next, err := req.URL.Parse(loc)
			if err != nil {
				return CodeBadURL, false, &Error{CodeBadURL, "URL using bad/illegal format or missing URL"}
			}
			if next.Scheme != "http" && next.Scheme != "https" {
				return CodeUnsupportedProtocol, false, &Error{CodeUnsupportedProtocol, fmt.Sprintf("Protocol %q not supported or disabled in libcurl", next.Scheme)}
			}
			req = o.redirect(req, next, resp.StatusCode)
			continue
		}
		if failed && !o.failBody {
			resp.Body.Close()
			err := &Error{CodeHTTP, fmt.Sprintf("The requested URL returned error: %d", resp.StatusCode)}
			return CodeHTTP, transientStatus(resp.StatusCode), err
		}
		var body io.Reader = resp.Body
		if o.compressed {
			switch strings.ToLower(resp.Header.Get("Content-Encoding")) {
			case "gzip", "x-gzip":
				if zr, err := gzip.NewReader(resp.Body); err == nil {
					body = zr
				}
			case "deflate":
				body = flate.NewReader(resp.Body)
			}
		}
		n, err := copyOut(w, body)
		res.size += n
		resp.Body.Close()
		if err != nil {
			var we writeError
			if errors.As(err, &we) {
				return CodeWrite, false, &Error{CodeWrite, "Failure writing output to destination"}
			}
			code := errCode(err)
			if code == CodeTimeout {
				err = &Error{CodeTimeout, fmt.Sprintf("Operation timed out after %d milliseconds with %d bytes received", time.Since(start).Milliseconds(), res.size)}
			}
			return code, code == CodeTimeout, err
		}
		if failed {
			return CodeHTTP, false, &Error{CodeHTTP, fmt.Sprintf("The requested URL returned error: %d", resp.StatusCode)}
		}
		if o.retry > 0 && transientStatus(resp.StatusCode) {
			return CodeHTTP, true, nil
		}
		return 0, false, nil
	}
}

func transientStatus(code int) bool {
	switch code {
	case 408, 429, 500, 502, 503, 504:
		return true
	}
	return false
}

// writeError is a failed write to the output.
type writeError struct{ error }

func copyOut(w io.Writer, r io.Reader) (int64, error) {
	buf := make([]byte, 32<<10)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			total += int64(n)
			if _, werr := w.Write(buf[:n]); werr != nil {
				return total, writeError{werr}
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

func errCode(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeRecv
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		return "Not a directory"
	case errors.Is(err, os.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, os.ErrPermission):
		return "Permission denied"
	}
	return err.Error()
}

func (o *curlOpts) dialer(c *command.Call) Dialer { return ChannelDialer(c.FS) }

// request builds the first request, headers in curl's order.
func (o *curlOpts) request(c *command.Call, u *url.URL) (*Request, error) {
	req := &Request{Method: "GET", URL: u}
	var body []byte
	ctype := ""
	switch {
	case len(o.form) > 0:
		b, ct, err := o.multipart(c)
		if err != nil {
			return nil, err
		}
		body, ctype, req.Method = b, ct, "POST"
	case o.dataSet && o.get:
		q := string(bytes.Join(o.data, []byte("&")))
		if u.RawQuery != "" {
			u.RawQuery += "&" + q
		} else {
			u.RawQuery = q
		}
	case o.dataSet:
		body, req.Method = bytes.Join(o.data, []byte("&")), "POST"
		ctype = "application/x-www-form-urlencoded"
		if o.json {
			ctype = "application/json"
		}
	}
	if o.head {
		req.Method = "HEAD"
	}
	if o.method != "" {
		req.Method = o.method
	}
	custom := map[string]bool{}
	var extra []Field
	for _, h := range o.headers {
		name, val, ok := strings.Cut(h, ":")
		if !ok {
			if n, found := strings.CutSuffix(h, ";"); found {
				extra = append(extra, Field{n, ""})
				custom[strings.ToLower(n)] = true
			}
			continue
		}
		name = strings.TrimSpace(name)
		custom[strings.ToLower(name)] = true
		val = strings.TrimLeft(val, " \t")
		if val == "" {
			continue // "Name:" removes curl's own
		}
		extra = append(extra, Field{name, val})
	}
	add := func(name, val string) {
		if !custom[strings.ToLower(name)] {
			req.Header = append(req.Header, Field{name, val})
		}
	}
	if o.userSet {
		user := o.user
		if !strings.Contains(user, ":") {
			user += ":"
		}
		add("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user)))
	}
	agent := "curl/" + curlVersion
	if o.agent != nil {
		agent = *o.agent
	}
	if agent != "" {
		add("User-Agent", agent)
	}
	if o.json {
		add("Accept", "application/json")
	} else {
		add("Accept", "*/*")
	}
	if o.referer != "" {
		add("Referer", o.referer)
	}
	if o.compressed {
		add("Accept-Encoding", "deflate, gzip")
	}
	for _, f := range extra {
		if strings.EqualFold(f.Name, "Host") {
			req.Header = append([]Field{f}, req.Header...)
			continue
		}
		req.Header = append(req.Header, f)
	}
	if body != nil || req.Method == "POST" && o.dataSet && !o.get {
		add("Content-Length", strconv.Itoa(len(body)))
		if ctype != "" {
			add("Content-Type", ctype)
		}
		if body == nil {
			body = []byte{}
		}
		req.Body = body
	}
	return req, nil
}

// redirect is the request curl -L sends to next after a status.
func (o *curlOpts) redirect(req *Request, next *url.URL, status int) *Request {
	if next.Path == "" {
		next.Path = "/"
	}
	r := &Request{Method: req.Method, URL: next, Body: req.Body}
	toGet := o.method == "" && (status == 303 && req.Method != "HEAD" || (status == 301 || status == 302) && req.Method == "POST")
	sameHost := strings.EqualFold(next.Host, req.URL.Host)
	for _, f := range req.Header {
		switch strings.ToLower(f.Name) {
		case "host":
			continue
		case "authorization", "cookie":
			if !sameHost {
				continue
			}
		case "content-length", "content-type":
			if toGet {
				continue
			}
		}
		r.Header = append(r.Header, f)
	}
	if toGet {
		r.Method, r.Body = "GET", nil
	}
	return r
}

// multipart builds -F's body and Content-Type.
func (o *curlOpts) multipart(c *command.Call) ([]byte, string, error) {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	boundary := "------------------------" + hex.EncodeToString(rnd[:])
	var b bytes.Buffer
	for _, f := range o.form {
		literal := strings.HasPrefix(f, "\x00")
		f = strings.TrimPrefix(f, "\x00")
		name, val, ok := strings.Cut(f, "=")
		if !ok {
			return nil, "", &Error{26, "Failed to read form data"}
		}
		ctype := ""
		if !literal {
			if v, t, ok := strings.Cut(val, ";type="); ok {
				val, ctype = v, t
			}
		}
		fmt.Fprintf(&b, "--%s\r\n", boundary)
		switch {
		case !literal && strings.HasPrefix(val, "@"):
			file := val[1:]
			data, err := readFile(c, file)
			if err != nil {
				fmt.Fprintf(c.Stderr, "Warning: setting file %s  failed!\n", file)
				return nil, "", &Error{CodeRead, "Failed to open/read local data from file/application"}
			}
			if ctype == "" {
				ctype = guessType(file)
			}
			fmt.Fprintf(&b, "Content-Disposition: form-data; name=%q; filename=%q\r\nContent-Type: %s\r\n\r\n", name, path.Base(file), ctype)
			b.Write(data)
		case !literal && strings.HasPrefix(val, "<"):
			data, err := readFile(c, val[1:])
			if err != nil {
				return nil, "", &Error{CodeRead, "Failed to open/read local data from file/application"}
			}
			fmt.Fprintf(&b, "Content-Disposition: form-data; name=%q\r\n", name)
			if ctype != "" {
				fmt.Fprintf(&b, "Content-Type: %s\r\n", ctype)
			}
			b.WriteString("\r\n")
			b.Write(data)
		default:
			fmt.Fprintf(&b, "Content-Disposition: form-data; name=%q\r\n", name)
			if ctype != "" {
				fmt.Fprintf(&b, "Content-Type: %s\r\n", ctype)
			}
			b.WriteString("\r\n" + val)
		}
		b.WriteString("\r\n")
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.Bytes(), "multipart/form-data; boundary=" + boundary, nil
}

// guessType is curl's guess of a file's type by its extension.
func guessType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".gif":
		return "image/gif"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".png":
		return "image/png"
	case ".svg":
		return "image/svg+xml"
	case ".txt":
		return "text/plain"
	case ".html", ".htm":
		return "text/html"
	case ".pdf":
		return "application/pdf"
	case ".xml":
		return "application/xml"
	}
	return "application/octet-stream"
}

// verbose prints -v's request and response lines.
func verbose(c *command.Call, req *Request, resp *Response) {
	fmt.Fprintf(c.Stderr, "* Connected to %s\n", resp.Addr)
	target := req.URL.EscapedPath()
	if req.URL.RawQuery != "" {
		target += "?" + req.URL.RawQuery
	}
	fmt.Fprintf(c.Stderr, "> %s %s HTTP/1.1\n", req.Method, target)
	if _, ok := req.Get("Host"); !ok {
		fmt.Fprintf(c.Stderr, "> Host: %s\n", hostHeader(req.URL))
	}
	for _, f := range req.Header {
		fmt.Fprintf(c.Stderr, "> %s: %s\n", f.Name, f.Value)
	}
	fmt.Fprintf(c.Stderr, "> \n")
	for _, line := range strings.SplitAfter(string(resp.RawHeader), "\n") {
		if line != "" {
			fmt.Fprintf(c.Stderr, "< %s", strings.TrimSuffix(line, "\r\n")+"\n")
		}
	}
}

// writeOutput prints -w's format.
func (o *curlOpts) writeOutput(c *command.Call, r *curlResult) {
	f := o.writeOut
	if name, ok := strings.CutPrefix(f, "@"); ok {
		var b []byte
		if name == "-" {
			b, _ = io.ReadAll(c.Stdin)
		} else {
			b, _ = readFile(c, name)
		}
		f = string(b)
	}
	var out bytes.Buffer
	w := io.Writer(c.Stdout)
	for i := 0; i < len(f); i++ {
		ch := f[i]
		switch {
		case ch == '\\' && i+1 < len(f):
			i++
			switch f[i] {
			case 'n':
				out.WriteByte('\n')
			case 'r':
				out.WriteByte('\r')
			case 't':
				out.WriteByte('\t')
			case '\\':
				out.WriteByte('\\')
			default:
				out.WriteByte('\\')
				out.WriteByte(f[i])
			}
		case ch == '%' && strings.HasPrefix(f[i:], "%%"):
			out.WriteByte('%')
			i++
		case ch == '%' && strings.HasPrefix(f[i:], "%{"):
			end := strings.IndexByte(f[i:], '}')
			if end < 0 {
				out.WriteString(f[i:])
				i = len(f)
				continue
			}
			name := f[i+2 : i+end]
			i += end
			switch name {
			case "stderr":
				w.Write(out.Bytes())
				out.Reset()
				w = c.Stderr
				continue
			case "stdout":
				w.Write(out.Bytes())
				out.Reset()
				w = c.Stdout
				continue
			}
			v, ok := r.variable(name)
			if !ok {
				fmt.Fprintf(c.Stderr, "curl: unknown --write-out variable: '%s'\n", name)
			}
			out.WriteString(v)
		case ch == '%' && strings.HasPrefix(f[i:], "%header{"):
			end := strings.IndexByte(f[i:], '}')
			if end < 0 {
				out.WriteString(f[i:])
				i = len(f)
				continue
			}
			out.WriteString(r.headers[strings.ToLower(f[i+8:i+end])])
			i += end
		default:
			out.WriteByte(ch)
		}
	}
	w.Write(out.Bytes())
}

func (r *curlResult) variable(name string) (string, bool) {
	secs := func(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }
	switch name {
	case "http_code", "response_code":
		return fmt.Sprintf("%03d", r.code), true
	case "url_effective", "url":
		return r.url, true
	case "size_download":
		return strconv.FormatInt(r.size, 10), true
	case "size_header":
		return strconv.FormatInt(r.header, 10), true
	case "content_type":
		return r.ctype, true
	case "num_redirects":
		return strconv.Itoa(r.redirects), true
	case "redirect_url":
		return r.redirect, true
	case "exitcode":
		return strconv.Itoa(r.exit), true
	case "errormsg":
		return r.errmsg, true
	case "method":
		return r.method, true
	case "scheme":
		return strings.ToUpper(r.scheme), true
	case "http_version":
		if r.version == "" {
			return "0", true
		}
		return r.version, true
	case "remote_ip", "remote_port":
		h, p, _ := strings.Cut(r.remote, ":")
		if name == "remote_ip" {
			return h, true
		}
		return p, true
	case "time_total", "time_connect", "time_starttransfer", "time_namelookup", "time_appconnect", "time_pretransfer", "time_redirect":
		return secs(time.Since(r.start)), true
	case "speed_download":
		return strconv.FormatInt(int64(float64(r.size)/max(time.Since(r.start).Seconds(), 1e-6)), 10), true
	}
	return "", false
}
