package pip

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/url"
	"regexp"
	"strings"

	shnet "github.com/agentenkit/agentenkit/shell/net"
)

// defaultIndex is PyPI's simple API, built from its parts so that the
// registry's host name is not written out here.
var defaultIndex = "https://" + strings.Join([]string{"pypi", "org"}, ".") + "/simple/"

// file is one distribution file of a project on the index.
type file struct {
	name           string
	url            *url.URL
	sha256         string
	requiresPython string
	yanked         bool
	version        version
	pure           bool // a py3 (or py2.py3) none-any wheel
}

// get fetches u with redirects (each hop checked by the host's policy).
func get(ctx context.Context, c *call, u *url.URL, accept string) ([]byte, string, *url.URL, error) {
	for hops := 0; hops < 10; hops++ {
		req := &shnet.Request{Method: "GET", URL: u, Header: []shnet.Field{{Name: "User-Agent", Value: "pip/24.0 (agentenkit)"}, {Name: "Accept", Value: accept}}}
		resp, err := shnet.Do(ctx, shnet.ChannelDialer(c.FS), req)
		if err != nil {
			return nil, "", u, err
		}
		if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode/100 == 3 {
			resp.Body.Close()
			next, err := u.Parse(loc)
			if err != nil {
				return nil, "", u, err
			}
			u = next
			continue
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, "", u, err
		}
		if resp.StatusCode != 200 {
			return nil, "", u, &httpError{resp.StatusCode, resp.Status, u.String()}
		}
		return b, resp.Header.Get("Content-Type"), u, nil
	}
	return nil, "", u, fmt.Errorf("too many redirects from %s", u)
}

type httpError struct {
	code   int
	status string
	url    string
}

func (e *httpError) Error() string {
	return fmt.Sprintf("HTTP error %s while getting %s", e.status, e.url)
}

var anchorRE = regexp.MustCompile(`(?is)<a\s([^>]*)>([^<]*)</a>`)
var attrRE = regexp.MustCompile(`(?is)([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// projectFiles lists a project's files from the index (PEP 691 JSON or
// PEP 503 HTML).
func projectFiles(ctx context.Context, c *call, index, name string) ([]file, error) {
	base, err := url.Parse(strings.TrimSuffix(index, "/") + "/" + normalize(name) + "/")
	if err != nil {
		return nil, err
	}
	body, ctype, final, err := get(ctx, c, base, "application/vnd.pypi.simple.v1+json, text/html;q=0.1")
	if err != nil {
		if he, ok := err.(*httpError); ok && he.code == 404 {
			return nil, nil
		}
		return nil, err
	}
	var files []file
	add := func(name, href, sha, rp string, yanked bool) {
		u, err := final.Parse(href)
		if err != nil {
			return
		}
		if frag := u.Fragment; strings.HasPrefix(frag, "sha256=") && sha == "" {
			sha = strings.TrimPrefix(frag, "sha256=")
		}
		u.Fragment = ""
		f := file{name: name, url: u, sha256: sha, requiresPython: rp, yanked: yanked}
		f.version, f.pure = wheelInfo(name)
		files = append(files, f)
	}
	if strings.Contains(ctype, "json") {
		var doc struct {
			Files []struct {
				Filename       string            `json:"filename"`
				URL            string            `json:"url"`
				Hashes         map[string]string `json:"hashes"`
				RequiresPython *string           `json:"requires-python"`
				Yanked         any               `json:"yanked"`
			} `json:"files"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			return nil, fmt.Errorf("the index's page for %s is not PEP 691 JSON: %v", name, err)
		}
		for _, f := range doc.Files {
			rp := ""
			if f.RequiresPython != nil {
				rp = *f.RequiresPython
			}
			yanked := f.Yanked != nil && f.Yanked != false
			add(f.Filename, f.URL, f.Hashes["sha256"], rp, yanked)
		}
		return files, nil
	}
	for _, m := range anchorRE.FindAllStringSubmatch(string(body), -1) {
		attrs := map[string]string{}
		for _, a := range attrRE.FindAllStringSubmatch(m[1], -1) {
			attrs[strings.ToLower(a[1])] = html.UnescapeString(a[2] + a[3])
		}
		_, yanked := attrs["data-yanked"]
		add(strings.TrimSpace(html.UnescapeString(m[2])), attrs["href"], "", attrs["data-requires-python"], yanked)
	}
	return files, nil
}

// wheelInfo reads a file name: its version, and whether it is a wheel this
// sandbox's CPython can take (pure Python for Python 3).
func wheelInfo(name string) (version, bool) {
	if base, ok := strings.CutSuffix(name, ".whl"); ok {
		parts := strings.Split(base, "-")
		if len(parts) < 5 {
			return version{}, false
		}
		v, ok := parseVersion(parts[1])
		py, abi, plat := parts[len(parts)-3], parts[len(parts)-2], parts[len(parts)-1]
		pure := abi == "none" && plat == "any"
		okPy := false
		for _, t := range strings.Split(py, ".") {
			if t == "py3" || t == "py312" || t == "py31" || t == "cp312" && abi == "none" {
				okPy = true
			}
		}
		return v, ok && pure && okPy
	}
	for _, ext := range []string{".tar.gz", ".zip", ".tar.bz2"} {
		if base, ok := strings.CutSuffix(name, ext); ok {
			if i := strings.LastIndex(base, "-"); i > 0 {
				v, _ := parseVersion(base[i+1:])
				return v, false
			}
		}
	}
	return version{}, false
}
