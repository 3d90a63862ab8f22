package e2btest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// timeoutGiven reports whether a JSON body has a non-null "timeout".
func timeoutGiven(raw []byte) (json.RawMessage, bool) {
	var body map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &body) != nil {
		return nil, false
	}
	v, ok := body["timeout"]
	return v, ok && string(v) != "null"
}

var domainPattern = regexp.MustCompile(`^(\*\.)?([a-zA-Z0-9_]([a-zA-Z0-9_-]*[a-zA-Z0-9_])?\.)*[a-zA-Z0-9_]([a-zA-Z0-9_-]*[a-zA-Z0-9_])?$`)

// ipOrCIDR reports whether s is an IP address or a CIDR block.
func ipOrCIDR(s string) bool {
	if strings.Contains(s, "/") {
		_, _, err := net.ParseCIDR(s)
		return err == nil
	}
	return net.ParseIP(s) != nil
}

// validate checks egress rules as E2B does: denyOut holds IP addresses and
// CIDR blocks; allowOut those or domains, and a domain only narrows a
// deny-all, so it needs denyOut to hold 0.0.0.0/0.
func (nb networkBody) validate() error {
	for _, d := range nb.DenyOut {
		if !ipOrCIDR(d) {
			return fmt.Errorf("invalid denyOut entry %q: denyOut takes IP addresses and CIDR blocks (such as 0.0.0.0/0)", d)
		}
	}
	for _, a := range nb.AllowOut {
		switch {
		case ipOrCIDR(a):
		case strings.Contains(a, "/") || net.ParseIP(strings.Trim(a, "[]")) != nil || strings.Count(a, ".") == 3 && strings.Trim(a, "0123456789.") == "":
			return fmt.Errorf("invalid allowOut entry %q: not a valid IP address or CIDR block", a)
		case !domainPattern.MatchString(a):
			return fmt.Errorf("invalid allowOut entry %q: not an IP address, a CIDR block or a domain", a)
		case !slices.Contains(nb.DenyOut, "0.0.0.0/0"):
			return fmt.Errorf("allowOut domain %q requires denyOut to contain 0.0.0.0/0: domain rules only apply when all other egress is denied", a)
		}
	}
	return nil
}

// listV2 is GET /v2/sandboxes: running and paused sandboxes, filtered by
// state (running,paused; comma-separated or repeated), metadata (an
// encoded query string of key=value pairs, all of which must match),
// template and startedAfter, ordered by start (order asc or desc, default
// desc), paged by limit (1..100, default 100) and nextToken (the
// X-Next-Token of the previous page). X-Total-Running counts the running
// sandboxes.
func (s *Server) listV2(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	states := map[string]bool{}
	for _, v := range q["state"] {
		for _, st := range strings.Split(v, ",") {
			if st != stateRunning && st != statePaused {
				writeError(w, http.StatusBadRequest, "invalid state %q: running or paused", st)
				return
			}
			states[st] = true
		}
	}
	if len(states) == 0 {
		states[stateRunning], states[statePaused] = true, true
	}
	meta := map[string]string{}
	if m := q.Get("metadata"); m != "" {
		pairs, err := url.ParseQuery(m)
		if err != nil {
			writeError(w, http.StatusBadRequest, "invalid metadata filter %q: %s", m, err)
			return
		}
		for k, vs := range pairs {
			key, err1 := url.QueryUnescape(k)
			val, err2 := url.QueryUnescape(vs[0])
			if err1 != nil || err2 != nil {
				writeError(w, http.StatusBadRequest, "invalid metadata filter %q", m)
				return
			}
			meta[key] = val
		}
	}
	limit := 100
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 100 {
			writeError(w, http.StatusBadRequest, "limit must be between 1 and 100")
			return
		}
		limit = n
	}
	var after time.Time
	if a := q.Get("startedAfter"); a != "" {
		t, err := time.Parse(time.RFC3339, a)
		if err != nil {
			writeError(w, http.StatusBadRequest, "invalid startedAfter %q: %s", a, err)
			return
		}
		after = t
	}
	order := q.Get("order")
	if order == "" {
		order = "desc"
	}
	if order != "asc" && order != "desc" {
		writeError(w, http.StatusBadRequest, "order must be asc or desc")
		return
	}
	tmpl := q.Get("template")

	s.mu.Lock()
	var all []detailBody
	running := 0
	for id := range s.sandboxes {
		sb := s.liveLocked(id)
		if sb == nil {
			continue
		}
		if sb.state == stateRunning {
			running++
		}
		if !states[sb.state] || (tmpl != "" && sb.templateID != tmpl) || (!after.IsZero() && !sb.startedAt.After(after)) {
			continue
		}
		match := true
		for k, v := range meta {
			if sb.metadata[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		d := s.detailLocked(sb)
		d.EnvdAccessToken, d.Domain, d.Network, d.AllowInternetAccess, d.Lifecycle = "", "", nil, nil, nil
		all = append(all, d)
	}
	s.mu.Unlock()
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if !a.StartedAt.Equal(b.StartedAt) {
			return a.StartedAt.Before(b.StartedAt) == (order == "asc")
		}
		return a.SandboxID < b.SandboxID
	})
	// The token is the id of the last sandbox sent: the next page starts
	// after it.
	if tok := q.Get("nextToken"); tok != "" {
		i := slices.IndexFunc(all, func(d detailBody) bool { return d.SandboxID == tok })
		if i < 0 {
			writeError(w, http.StatusBadRequest, "invalid nextToken %q", tok)
			return
		}
		all = all[i+1:]
	}
	if len(all) > limit {
		w.Header().Set("X-Next-Token", all[limit-1].SandboxID)
		all = all[:limit]
	}
	w.Header().Set("X-Total-Running", strconv.Itoa(running))
	if all == nil {
		all = []detailBody{}
	}
	writeJSON(w, http.StatusOK, all)
}

// metricBody is one sample of GET /sandboxes/{id}/metrics.
type metricBody struct {
	Timestamp     time.Time `json:"timestamp"`
	TimestampUnix int64     `json:"timestampUnix"`
	CPUCount      int       `json:"cpuCount"`
	CPUUsedPct    float64   `json:"cpuUsedPct"`
	MemUsed       int64     `json:"memUsed"`
	MemTotal      int64     `json:"memTotal"`
	MemCache      int64     `json:"memCache"`
	DiskUsed      int64     `json:"diskUsed"`
	DiskTotal     int64     `json:"diskTotal"`
}

// metrics is GET /sandboxes/{id}/metrics: one sample, now, with the sizes
// the sandbox reports (GetInfo); usage is not measured (zero).
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	id, ok := sandboxID(w, r)
	if !ok {
		return
	}
	sb := s.live(id)
	if sb == nil {
		notFound(w, id)
		return
	}
	now := time.Now().UTC()
	writeJSON(w, http.StatusOK, []metricBody{{
		Timestamp: now, TimestampUnix: now.Unix(),
		CPUCount: 2, MemTotal: 512 << 20, DiskTotal: 1024 << 20,
	}})
}
