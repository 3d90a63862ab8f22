package e2btest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

const (
	clientID    = "6532622b"
	envdVersion = "0.6.13"
	envdPort    = 49983

	stateRunning = "running"
	statePaused  = "paused"
)

// sbx is one E2B sandbox. Its mutable fields are guarded by Server.mu;
// backend is safe for concurrent use.
type sbx struct {
	id         string
	templateID string
	backend    sandbox.Sandbox
	tree       tree // where the sandbox's folders are in the backend
	startedAt  time.Time
	metadata   map[string]string
	envVars    map[string]string
	allowNet   *bool
	network    json.RawMessage

	secure bool
	token  string
	endAt  time.Time
	state  string
	timer  *time.Timer
	ended  bool
	procs  map[uint32]*proc
}

// live is liveLocked with the lock.
func (s *Server) live(id string) *sbx {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.liveLocked(id)
}

// liveLocked returns a sandbox that has not ended, ending it first when its
// time is up.
func (s *Server) liveLocked(id string) *sbx {
	sb := s.sandboxes[id]
	if sb == nil {
		return nil
	}
	if sb.state == stateRunning && !time.Now().Before(sb.endAt) {
		delete(s.sandboxes, id)
		s.endLocked(sb)
		s.bg.Add(1)
		go func() {
			defer s.bg.Done()
			s.destroyBackend(sb)
		}()
		return nil
	}
	return sb
}

// endLocked marks a sandbox (already out of the map) ended and kills its
// processes.
func (s *Server) endLocked(sb *sbx) {
	sb.ended = true
	if sb.timer != nil {
		sb.timer.Stop()
	}
	for _, p := range sb.procs {
		p.cancel()
	}
}

func (s *Server) destroyBackend(sb *sbx) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = sb.backend.Destroy(ctx)
}

// scheduleLocked arms the sandbox's end at endAt.
func (s *Server) scheduleLocked(sb *sbx) {
	if sb.timer != nil {
		sb.timer.Stop()
	}
	sb.timer = time.AfterFunc(time.Until(sb.endAt), func() {
		s.mu.Lock()
		_ = s.liveLocked(sb.id) // ends it if its time is up
		s.mu.Unlock()
	})
}

func (s *Server) pauseLocked(sb *sbx) {
	sb.state = statePaused
	if sb.timer != nil {
		sb.timer.Stop()
	}
}

// clamp bounds an end by the longest life from the start.
func (s *Server) clamp(sb *sbx, end time.Time) time.Time {
	if limit := sb.startedAt.Add(s.opts.MaxTimeout); end.After(limit) {
		return limit
	}
	return end
}

var idPattern = regexp.MustCompile(`^[a-z0-9]+$`)

// sandboxID reads the {id} of a path, accepting the legacy <id>-<clientID>.
func sandboxID(w http.ResponseWriter, r *http.Request) (string, bool) {
	id, _, _ := strings.Cut(r.PathValue("id"), "-")
	if !idPattern.MatchString(id) {
		writeError(w, http.StatusBadRequest, "Invalid sandbox ID")
		return "", false
	}
	return id, true
}

func notFound(w http.ResponseWriter, id string) {
	writeError(w, http.StatusNotFound, "Sandbox %q doesn't exist or you don't have access to it", id)
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, raw []byte) {
	if r.URL.Path == "/health" {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("Health check successful"))
		return
	}
	key := r.Header.Get("X-API-Key")
	switch {
	case key == "":
		writeError(w, http.StatusUnauthorized, "Invalid API key format")
		return
	case s.opts.APIKey != "" && key != s.opts.APIKey:
		writeError(w, http.StatusUnauthorized, "Invalid API key, please visit your E2B dashboard for more information.")
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /sandboxes", func(w http.ResponseWriter, r *http.Request) { s.create(w, r, raw, false) })
	mux.HandleFunc("POST /v2/sandboxes", func(w http.ResponseWriter, r *http.Request) { s.create(w, r, raw, true) })
	mux.HandleFunc("GET /sandboxes", s.list)
	mux.HandleFunc("GET /v2/sandboxes", s.listV2)
	mux.HandleFunc("GET /sandboxes/{id}/metrics", s.metrics)
	mux.HandleFunc("GET /sandboxes/{id}", s.get)
	mux.HandleFunc("DELETE /sandboxes/{id}", s.kill)
	mux.HandleFunc("POST /sandboxes/{id}/timeout", func(w http.ResponseWriter, r *http.Request) { s.setTimeout(w, r, raw) })
	mux.HandleFunc("POST /sandboxes/{id}/connect", func(w http.ResponseWriter, r *http.Request) { s.connect(w, r, raw, false) })
	mux.HandleFunc("POST /v2/sandboxes/{id}/connect", func(w http.ResponseWriter, r *http.Request) { s.connect(w, r, raw, true) })
	mux.HandleFunc("POST /sandboxes/{id}/refreshes", func(w http.ResponseWriter, r *http.Request) { s.refresh(w, r, raw) })
	mux.HandleFunc("POST /sandboxes/{id}/pause", s.pause)
	if _, pattern := mux.Handler(r); s.opts.V1Only && strings.HasPrefix(pattern, "POST /v2/") || strings.HasPrefix(pattern, "GET /v2/") && s.opts.V1Only {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	if _, pattern := mux.Handler(r); pattern == "" {
		// Not 404: clients read a 404 as "sandbox not found".
		writeError(w, http.StatusNotImplemented, "e2btest: %s %s is not implemented by the test server", r.Method, r.URL.Path)
		return
	}
	mux.ServeHTTP(w, r)
}

// newSandboxBody is E2B's NewSandbox: the fields the server knows (others
// are ignored, as the control plane does).
type newSandboxBody struct {
	TemplateID          string            `json:"templateID"`
	Timeout             *int32            `json:"timeout"`
	AutoPause           bool              `json:"autoPause"`
	Secure              *bool             `json:"secure"`
	AllowInternetAccess *bool             `json:"allow_internet_access"`
	Network             json.RawMessage   `json:"network"`
	Metadata            map[string]string `json:"metadata"`
	EnvVars             map[string]string `json:"envVars"`
}

type networkBody struct {
	AllowPublicTraffic *bool    `json:"allowPublicTraffic"`
	AllowOut           []string `json:"allowOut"`
	DenyOut            []string `json:"denyOut"`
}

// create is POST /sandboxes and (v2) POST /v2/sandboxes, whose sandboxes
// are always secure (the body's secure is ignored).
func (s *Server) create(w http.ResponseWriter, r *http.Request, raw []byte, v2 bool) {
	if s.opts.Backend == nil {
		writeError(w, http.StatusInternalServerError, "e2btest: Options.Backend is not set")
		return
	}
	var req newSandboxBody
	if err := json.Unmarshal(raw, &req); err != nil {
		writeError(w, http.StatusBadRequest, "Error when parsing request: %s", err)
		return
	}
	if req.TemplateID == "" {
		writeError(w, http.StatusBadRequest, "templateID is required")
		return
	}
	timeout := int32(15)
	if req.Timeout != nil {
		timeout = *req.Timeout
	}
	if timeout <= 0 {
		writeError(w, http.StatusBadRequest, "Timeout must be greater than 0")
		return
	}
	if time.Duration(timeout)*time.Second > s.opts.MaxTimeout {
		writeError(w, http.StatusBadRequest, "Timeout cannot be greater than %d hours", int(s.opts.MaxTimeout.Hours()))
		return
	}
	if req.AutoPause {
		writeError(w, http.StatusBadRequest, "e2btest: autoPause is not supported by the test server")
		return
	}
	secure := v2 || (req.Secure != nil && *req.Secure)
	var nb networkBody
	if len(req.Network) > 0 && string(req.Network) != "null" {
		if err := json.Unmarshal(req.Network, &nb); err != nil {
			writeError(w, http.StatusBadRequest, "Error when parsing request: network: %s", err)
			return
		}
		if nb.AllowPublicTraffic != nil && !*nb.AllowPublicTraffic && !secure {
			writeError(w, http.StatusBadRequest, "allowPublicTraffic=false requires secure=true")
			return
		}
		if err := nb.validate(); err != nil {
			writeError(w, http.StatusBadRequest, "%s", err)
			return
		}
	}
	netw := backendNetwork(req.AllowInternetAccess, nb)
	opts := sandbox.CreateSandboxOptions{Network: netw, Envs: req.EnvVars, Timeout: s.opts.MaxTimeout + time.Hour}
	back, err := s.opts.Backend.Create(r.Context(), opts)
	if errors.Is(err, sandbox.ErrUnsupported) && netw.Mode == sandbox.NetworkAllowList {
		opts.Network = sandbox.Network{} // stricter than asked: no network at all
		back, err = s.opts.Backend.Create(r.Context(), opts)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "e2btest: the backend could not make a sandbox: %s", err)
		return
	}
	info, err := back.GetInfo(r.Context())
	if err == nil && !path.IsAbs(info.Workdir) {
		err = fmt.Errorf("work folder %q is not absolute", info.Workdir)
	}
	if err != nil {
		_ = back.Destroy(context.Background())
		writeError(w, http.StatusInternalServerError, "e2btest: the backend sandbox has no info: %s", err)
		return
	}
	// The sandbox's own folders, as E2B's base template has them.
	tr := tree{base: strings.TrimSuffix(path.Clean(info.Workdir), "/")}
	for _, dir := range []string{HomeDir, "/tmp"} {
		if err == nil {
			err = treeFS{fs: back.FileSystem(), tree: tr}.Mkdir(r.Context(), dir)
		}
	}
	if err != nil {
		_ = back.Destroy(context.Background())
		writeError(w, http.StatusInternalServerError, "e2btest: making the sandbox's folders on the backend: %s", err)
		return
	}
	tr = chooseView(r.Context(), back, tr)
	now := time.Now().UTC()
	sb := &sbx{
		id:         randomID(20),
		templateID: req.TemplateID,
		backend:    back,
		tree:       tr,
		startedAt:  now,
		metadata:   req.Metadata,
		envVars:    req.EnvVars,
		allowNet:   req.AllowInternetAccess,
		network:    req.Network,
		secure:     secure,
		endAt:      now.Add(time.Duration(timeout) * time.Second),
		state:      stateRunning,
		procs:      map[uint32]*proc{},
	}
	if secure {
		var b [16]byte
		_, _ = rand.Read(b[:])
		sb.token = hex.EncodeToString(b[:])
	}
	s.mu.Lock()
	s.sandboxes[sb.id] = sb
	s.scheduleLocked(sb)
	body := s.sandboxJSONLocked(sb)
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, body)
}

// backendNetwork maps E2B's egress settings to the backend's policy.
func backendNetwork(allowInternet *bool, nb networkBody) sandbox.Network {
	denyAll := allowInternet != nil && !*allowInternet // E2B's default is on
	for _, d := range nb.DenyOut {
		if d == "0.0.0.0/0" {
			denyAll = true
		}
	}
	switch {
	case denyAll && len(nb.AllowOut) > 0:
		return sandbox.AllowDomains(nb.AllowOut...)
	case denyAll:
		return sandbox.Network{}
	}
	return sandbox.Network{Mode: sandbox.NetworkAll}
}

// sandboxBody is E2B's Sandbox.
type sandboxBody struct {
	TemplateID      string `json:"templateID"`
	SandboxID       string `json:"sandboxID"`
	ClientID        string `json:"clientID"`
	EnvdVersion     string `json:"envdVersion"`
	EnvdAccessToken string `json:"envdAccessToken,omitempty"`
	Domain          string `json:"domain,omitempty"`
}

func (s *Server) sandboxJSONLocked(sb *sbx) sandboxBody {
	return sandboxBody{
		TemplateID:      sb.templateID,
		SandboxID:       sb.id,
		ClientID:        clientID,
		EnvdVersion:     envdVersion,
		EnvdAccessToken: sb.token,
		Domain:          s.opts.Domain,
	}
}

// detailBody is E2B's SandboxDetail.
type detailBody struct {
	TemplateID          string            `json:"templateID"`
	SandboxID           string            `json:"sandboxID"`
	ClientID            string            `json:"clientID"`
	StartedAt           time.Time         `json:"startedAt"`
	EndAt               time.Time         `json:"endAt"`
	CPUCount            int               `json:"cpuCount"`
	MemoryMB            int               `json:"memoryMB"`
	DiskSizeMB          int               `json:"diskSizeMB"`
	Metadata            map[string]string `json:"metadata,omitempty"`
	State               string            `json:"state"`
	EnvdVersion         string            `json:"envdVersion"`
	EnvdAccessToken     string            `json:"envdAccessToken,omitempty"`
	Domain              string            `json:"domain,omitempty"`
	AllowInternetAccess *bool             `json:"allowInternetAccess,omitempty"`
	Network             json.RawMessage   `json:"network,omitempty"`
	Lifecycle           map[string]any    `json:"lifecycle,omitempty"`
}

func (s *Server) detailLocked(sb *sbx) detailBody {
	d := detailBody{
		TemplateID:          sb.templateID,
		SandboxID:           sb.id,
		ClientID:            clientID,
		StartedAt:           sb.startedAt,
		EndAt:               sb.endAt.UTC(),
		CPUCount:            2,
		MemoryMB:            512,
		DiskSizeMB:          1024,
		Metadata:            sb.metadata,
		State:               sb.state,
		EnvdVersion:         envdVersion,
		EnvdAccessToken:     sb.token,
		Domain:              s.opts.Domain,
		AllowInternetAccess: sb.allowNet,
		Lifecycle:           map[string]any{"autoResume": false, "onTimeout": "kill"},
	}
	if len(sb.network) > 0 && string(sb.network) != "null" {
		d.Network = sb.network
	}
	return d
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	id, ok := sandboxID(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	sb := s.liveLocked(id)
	var d detailBody
	if sb != nil {
		d = s.detailLocked(sb)
	}
	s.mu.Unlock()
	if sb == nil {
		notFound(w, id)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// list is the deprecated GET /sandboxes: the running sandboxes.
func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	out := []detailBody{}
	for id := range s.sandboxes {
		if sb := s.liveLocked(id); sb != nil && sb.state == stateRunning {
			d := s.detailLocked(sb)
			d.EnvdAccessToken, d.Domain, d.Network, d.AllowInternetAccess, d.Lifecycle = "", "", nil, nil, nil
			out = append(out, d)
		}
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].StartedAt.Before(out[j].StartedAt) })
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) kill(w http.ResponseWriter, r *http.Request) {
	id, ok := sandboxID(w, r)
	if !ok {
		return
	}
	if !s.Kill(id) {
		notFound(w, id)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// readSeconds reads {"<field>": <int32 seconds>}.
func readSeconds(w http.ResponseWriter, raw []byte, field string, required bool) (int64, bool) {
	if len(raw) == 0 && !required {
		return 0, true
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		writeError(w, http.StatusBadRequest, "Error when parsing request: %s", err)
		return 0, false
	}
	v, ok := body[field]
	if !ok {
		if required {
			writeError(w, http.StatusBadRequest, "Error when parsing request: %s is required", field)
			return 0, false
		}
		return 0, true
	}
	var n int32
	if err := json.Unmarshal(v, &n); err != nil {
		writeError(w, http.StatusBadRequest, "Error when parsing request: %s: %s", field, err)
		return 0, false
	}
	return int64(n), true
}

func (s *Server) setTimeout(w http.ResponseWriter, r *http.Request, raw []byte) {
	id, ok := sandboxID(w, r)
	if !ok {
		return
	}
	secs, ok := readSeconds(w, raw, "timeout", true)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveLocked(id)
	if sb == nil {
		notFound(w, id)
		return
	}
	// The TTL is replaced, measured from now; negative counts as 0.
	sb.endAt = s.clamp(sb, time.Now().Add(time.Duration(max(secs, 0))*time.Second))
	if sb.state == stateRunning {
		s.scheduleLocked(sb)
	}
	w.WriteHeader(http.StatusNoContent)
}

// connect is POST /sandboxes/{id}/connect and (v2) POST
// /v2/sandboxes/{id}/connect, whose timeout is optional (300 s).
func (s *Server) connect(w http.ResponseWriter, r *http.Request, raw []byte, v2 bool) {
	id, ok := sandboxID(w, r)
	if !ok {
		return
	}
	secs, ok := readSeconds(w, raw, "timeout", !v2)
	if !ok {
		return
	}
	if _, given := timeoutGiven(raw); v2 && !given {
		secs = 300
	}
	if secs <= 0 {
		writeError(w, http.StatusBadRequest, "Timeout must be greater than 0")
		return
	}
	s.mu.Lock()
	sb := s.liveLocked(id)
	if sb == nil {
		s.mu.Unlock()
		notFound(w, id)
		return
	}
	end := s.clamp(sb, time.Now().Add(time.Duration(secs)*time.Second))
	status := http.StatusOK
	if sb.state == statePaused {
		sb.state, sb.endAt, status = stateRunning, end, http.StatusCreated
	} else if end.After(sb.endAt) {
		sb.endAt = end // connect only extends
	}
	s.scheduleLocked(sb)
	body := s.sandboxJSONLocked(sb)
	s.mu.Unlock()
	writeJSON(w, status, body)
}

func (s *Server) refresh(w http.ResponseWriter, r *http.Request, raw []byte) {
	id, ok := sandboxID(w, r)
	if !ok {
		return
	}
	secs, ok := readSeconds(w, raw, "duration", false)
	if !ok {
		return
	}
	if secs < 0 || secs > 3600 {
		writeError(w, http.StatusBadRequest, "duration must be between 0 and 3600 seconds")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveLocked(id)
	if sb == nil {
		notFound(w, id)
		return
	}
	if end := s.clamp(sb, time.Now().Add(time.Duration(max(secs, 15))*time.Second)); end.After(sb.endAt) {
		sb.endAt = end
		if sb.state == stateRunning {
			s.scheduleLocked(sb)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) pause(w http.ResponseWriter, r *http.Request) {
	id, ok := sandboxID(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveLocked(id)
	if sb == nil {
		notFound(w, id)
		return
	}
	if sb.state == statePaused {
		writeError(w, http.StatusConflict, "Sandbox %q is already paused", id)
		return
	}
	s.pauseLocked(sb)
	w.WriteHeader(http.StatusNoContent)
}
