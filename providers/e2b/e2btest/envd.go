package e2btest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
	"github.com/agentenkit/agentenkit/sandbox"
)

const defaultUser = "user"

// maxGzip is the largest file GET /files compresses when asked to (envd
// compresses any; larger ones go plain here to keep tests quick).
const maxGzip = 1 << 20

// envdReq is one request to a sandbox's envd.
type envdReq struct {
	s   *Server
	sb  *sbx
	w   http.ResponseWriter
	r   *http.Request
	raw []byte
}

func proxyGone(w http.ResponseWriter, id string) {
	writeJSON(w, http.StatusBadGateway, map[string]any{"sandboxId": id, "message": "The sandbox was not found", "code": http.StatusBadGateway})
}

func (s *Server) serveEnvd(w http.ResponseWriter, r *http.Request, id string, port int, raw []byte) {
	s.mu.Lock()
	sb := s.liveLocked(id)
	running := sb != nil && sb.state == stateRunning
	var secure bool
	var token string
	if sb != nil {
		secure, token = sb.secure, sb.token
	}
	s.mu.Unlock()
	if !running {
		proxyGone(w, id)
		return
	}
	if port != envdPort {
		writeJSON(w, http.StatusBadGateway, map[string]any{"sandboxId": id, "message": "The sandbox is running but port is not open", "port": port, "code": http.StatusBadGateway})
		return
	}
	if r.URL.Path != "/health" && secure && r.Header.Get("X-Access-Token") != token {
		writeError(w, http.StatusUnauthorized, "unauthorized access, please provide a valid access token or method signing if supported")
		return
	}
	e := &envdReq{s: s, sb: sb, w: w, r: r, raw: raw}
	switch p := r.URL.Path; {
	case p == "/health" && r.Method == http.MethodGet:
		w.WriteHeader(http.StatusNoContent)
	case p == "/envs" && r.Method == http.MethodGet:
		envs := sb.envVars
		if envs == nil {
			envs = map[string]string{}
		}
		writeJSON(w, http.StatusOK, envs)
	case p == "/files" && r.Method == http.MethodGet:
		e.getFile()
	case p == "/files" && r.Method == http.MethodPost:
		e.postFiles()
	case r.Method != http.MethodPost:
		http.NotFound(w, r)
	case p == "/process.Process/Start":
		e.processStart()
	case p == "/process.Process/Connect":
		e.processConnect()
	case p == "/process.Process/List":
		unary(e, e.processList)
	case p == "/process.Process/SendSignal":
		unary(e, e.processSignal)
	case p == "/process.Process/SendInput":
		unary(e, e.processInput)
	case p == "/process.Process/CloseStdin":
		unary(e, e.processCloseStdin)
	case p == "/process.Process/Update":
		unary(e, func(*json.RawMessage) (any, *connectrpc.Error) {
			return nil, &connectrpc.Error{Code: connectrpc.CodeUnimplemented, Message: "e2btest: PTYs are not supported"}
		})
	case p == "/process.Process/StreamInput", p == "/filesystem.Filesystem/WatchDir":
		sw := &streamWriter{w: w}
		sw.end(&connectrpc.Error{Code: connectrpc.CodeUnimplemented, Message: "e2btest: " + p + " is not supported"})
	case p == "/filesystem.Filesystem/Stat":
		unary(e, e.fsStat)
	case p == "/filesystem.Filesystem/ListDir":
		unary(e, e.fsListDir)
	case p == "/filesystem.Filesystem/MakeDir":
		unary(e, e.fsMakeDir)
	case p == "/filesystem.Filesystem/Move":
		unary(e, e.fsMove)
	case p == "/filesystem.Filesystem/Remove":
		unary(e, e.fsRemove)
	case strings.HasPrefix(p, "/filesystem.Filesystem/") || strings.HasPrefix(p, "/process.Process/"):
		unary(e, func(*json.RawMessage) (any, *connectrpc.Error) {
			return nil, &connectrpc.Error{Code: connectrpc.CodeUnimplemented, Message: "e2btest: " + p + " is not supported"}
		})
	default:
		http.NotFound(w, r)
	}
}

// errGoneMidway makes a handler answer the proxy's 502: the sandbox ended
// while the request was served.
var errGoneMidway = &connectrpc.Error{Code: "e2btest_gone"}

// unary serves a unary Connect call: JSON in (unknown fields rejected, as
// envd's protojson does), JSON out, errors as {"code","message"} with the
// status Connect maps the code to.
func unary[T any](e *envdReq, fn func(*T) (any, *connectrpc.Error)) {
	if mt, _, _ := mime.ParseMediaType(e.r.Header.Get("Content-Type")); mt != connectrpc.ContentTypeUnary {
		e.w.Header().Set("Accept-Post", "application/json, application/proto")
		e.w.WriteHeader(http.StatusUnsupportedMediaType)
		return
	}
	if _, cerr := rpcUser(e.r); cerr != nil {
		writeConnectError(e.w, cerr)
		return
	}
	req := new(T)
	if cerr := decodeStrict(e.raw, req); cerr != nil {
		writeConnectError(e.w, cerr)
		return
	}
	resp, cerr := fn(req)
	if cerr == errGoneMidway {
		proxyGone(e.w, e.sb.id)
		return
	}
	if cerr != nil {
		writeConnectError(e.w, cerr)
		return
	}
	if resp == nil {
		resp = struct{}{}
	}
	writeJSON(e.w, http.StatusOK, resp)
}

func writeConnectError(w http.ResponseWriter, e *connectrpc.Error) {
	writeJSON(w, connectrpc.CodeToHTTP(e.Code), e)
}

// decodeStrict decodes a protojson message, refusing unknown fields.
func decodeStrict(data []byte, v any) *connectrpc.Error {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: "proto: syntax error: " + err.Error()}
	}
	if dec.More() {
		return &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: "proto: syntax error: unexpected data after the message"}
	}
	return nil
}

// rootUser is the sandbox's other user, as in E2B's base template.
const rootUser = "root"

// rpcUser reads the user of a Connect call (Authorization: Basic, empty
// password): the default user when absent; "user" and "root" exist.
func rpcUser(r *http.Request) (string, *connectrpc.Error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return defaultUser, nil
	}
	enc, ok := strings.CutPrefix(h, "Basic ")
	name := ""
	if ok {
		if b, err := base64.StdEncoding.DecodeString(enc); err == nil {
			name, _, _ = strings.Cut(string(b), ":")
		}
	}
	if name != defaultUser && name != rootUser {
		return "", &connectrpc.Error{Code: connectrpc.CodeUnauthenticated, Message: fmt.Sprintf("invalid username: '%s'", name)}
	}
	return name, nil
}

// fileUser checks the username query of /files.
func fileUser(w http.ResponseWriter, r *http.Request) bool {
	if u := r.URL.Query().Get("username"); u != "" && u != defaultUser && u != rootUser {
		writeError(w, http.StatusUnauthorized, "invalid username: '%s'", u)
		return false
	}
	return true
}

// resolve is envd's path resolution: relative to the home, ~ expanded.
func (sb *sbx) resolve(p string) string { return resolveIn(HomeDir, p) }

// files is the backend sandbox's FileSystem in the sandbox's paths.
func (sb *sbx) files() sandbox.FileSystem {
	return treeFS{fs: sb.backend.FileSystem(), tree: sb.tree}
}

// entryJSON is envd's EntryInfo (zero values left out, as protojson does).
type entryJSON struct {
	Name         string `json:"name,omitempty"`
	Type         string `json:"type,omitempty"`
	Path         string `json:"path,omitempty"`
	Size         string `json:"size,omitempty"`
	Mode         uint32 `json:"mode,omitempty"`
	Permissions  string `json:"permissions,omitempty"`
	Owner        string `json:"owner,omitempty"`
	Group        string `json:"group,omitempty"`
	ModifiedTime string `json:"modifiedTime,omitempty"`
}

func (e entryJSON) isDir() bool { return e.Type == "FILE_TYPE_DIRECTORY" }

func toEntry(abs string, isDir bool, size int64, mod time.Time) entryJSON {
	e := entryJSON{Name: path.Base(abs), Path: abs, Owner: defaultUser, Group: defaultUser}
	if isDir {
		e.Type, e.Size, e.Mode, e.Permissions = "FILE_TYPE_DIRECTORY", "4096", uint32(fs.ModeDir|0o755), "drwxr-xr-x"
	} else {
		e.Type, e.Mode, e.Permissions = "FILE_TYPE_FILE", 0o644, "-rw-r--r--"
		if size != 0 {
			e.Size = strconv.FormatInt(size, 10)
		}
	}
	if !mod.IsZero() {
		e.ModifiedTime = mod.UTC().Format(time.RFC3339Nano)
	}
	return e
}

var errMissing = errors.New("no such file or directory")

// stat describes abs through the backend's folder listing of its parent:
// errMissing when it is not there (or outside what the backend reaches),
// sandbox.ErrGone when the backend sandbox has ended.
func (e *envdReq) stat(abs string) (entryJSON, error) {
	if abs == "/" {
		return toEntry(abs, true, 0, e.sb.startedAt), nil
	}
	entries, err := e.sb.files().ReadDir(e.r.Context(), path.Dir(abs))
	if errors.Is(err, sandbox.ErrGone) {
		return entryJSON{}, err
	}
	if err != nil {
		return entryJSON{}, errMissing
	}
	name := path.Base(abs)
	for _, fe := range entries {
		if fe.Name == name {
			return toEntry(abs, fe.IsDir, fe.Size, fe.ModTime), nil
		}
	}
	return entryJSON{}, errMissing
}

// fsError maps a backend error to a Connect error.
func fsError(op, p string, err error) *connectrpc.Error {
	switch {
	case errors.Is(err, sandbox.ErrGone):
		return errGoneMidway
	case errors.Is(err, errMissing), errors.Is(err, fs.ErrNotExist), errors.Is(err, sandbox.ErrOutsideRoot):
		return &connectrpc.Error{Code: connectrpc.CodeNotFound, Message: fmt.Sprintf("%s: path '%s' does not exist", op, p)}
	case errors.Is(err, fs.ErrInvalid):
		return &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("%s %s: %s", op, p, err)}
	}
	return &connectrpc.Error{Code: connectrpc.CodeInternal, Message: fmt.Sprintf("%s %s: %s", op, p, err)}
}

func (e *envdReq) getFile() {
	if !fileUser(e.w, e.r) {
		return
	}
	abs := e.sb.resolve(e.r.URL.Query().Get("path"))
	ent, err := e.stat(abs)
	switch {
	case errors.Is(err, sandbox.ErrGone):
		proxyGone(e.w, e.sb.id)
		return
	case err != nil:
		writeError(e.w, http.StatusNotFound, "path '%s' does not exist", abs)
		return
	case ent.isDir():
		writeError(e.w, http.StatusBadRequest, "path '%s' is a directory", abs)
		return
	}
	data, err := e.sb.files().ReadFileBytes(e.r.Context(), abs)
	switch {
	case errors.Is(err, sandbox.ErrGone):
		proxyGone(e.w, e.sb.id)
		return
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, sandbox.ErrOutsideRoot):
		writeError(e.w, http.StatusNotFound, "path '%s' does not exist", abs)
		return
	case errors.Is(err, fs.ErrInvalid):
		writeError(e.w, http.StatusBadRequest, "path '%s' is a directory", abs)
		return
	case err != nil:
		writeError(e.w, http.StatusInternalServerError, "error reading file '%s': %s", abs, err)
		return
	}
	h := e.w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": path.Base(abs)}))
	if len(data) <= maxGzip && strings.Contains(e.r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		h.Set("Vary", "Accept-Encoding")
		e.w.WriteHeader(http.StatusOK)
		zw := gzip.NewWriter(e.w)
		_, _ = zw.Write(data)
		_ = zw.Close()
		return
	}
	var mod time.Time
	if ent.ModifiedTime != "" {
		mod, _ = time.Parse(time.RFC3339Nano, ent.ModifiedTime)
	}
	http.ServeContent(e.w, e.r, path.Base(abs), mod, bytes.NewReader(data))
}

func (e *envdReq) postFiles() {
	if !fileUser(e.w, e.r) {
		return
	}
	qpath, hasPath := e.r.URL.Query()["path"]
	type upload struct {
		abs  string
		data []byte
	}
	var ups []upload
	mt, params, _ := mime.ParseMediaType(e.r.Header.Get("Content-Type"))
	switch mt {
	case "application/octet-stream":
		if !hasPath {
			writeError(e.w, http.StatusBadRequest, "path is required for application/octet-stream uploads")
			return
		}
		data := e.raw
		if e.r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err == nil {
				data, err = io.ReadAll(zr)
			}
			if err != nil {
				writeError(e.w, http.StatusBadRequest, "error decompressing the body: %s", err)
				return
			}
		}
		ups = append(ups, upload{e.sb.resolve(qpath[0]), data})
	case "multipart/form-data":
		mr := multipart.NewReader(bytes.NewReader(e.raw), params["boundary"])
		seen := map[string]bool{}
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				writeError(e.w, http.StatusBadRequest, "error parsing multipart form: %s", err)
				return
			}
			if part.FormName() != "file" {
				continue
			}
			target := ""
			if hasPath {
				target = qpath[0]
			} else if _, cd, err := mime.ParseMediaType(part.Header.Get("Content-Disposition")); err == nil {
				target = cd["filename"]
			}
			abs := e.sb.resolve(target)
			if seen[abs] {
				writeError(e.w, http.StatusBadRequest, "cannot upload multiple files to the same path '%s'", abs)
				return
			}
			seen[abs] = true
			data, err := io.ReadAll(part)
			if err != nil {
				writeError(e.w, http.StatusBadRequest, "error reading part: %s", err)
				return
			}
			ups = append(ups, upload{abs, data})
		}
	default:
		writeError(e.w, http.StatusBadRequest, "unsupported content type '%s'", mt)
		return
	}
	out := []map[string]string{}
	for _, u := range ups {
		if ent, err := e.stat(u.abs); errors.Is(err, sandbox.ErrGone) {
			proxyGone(e.w, e.sb.id)
			return
		} else if err == nil && ent.isDir() {
			writeError(e.w, http.StatusBadRequest, "path '%s' is a directory", u.abs)
			return
		}
		err := e.sb.files().WriteFile(e.r.Context(), u.abs, u.data)
		switch {
		case errors.Is(err, sandbox.ErrGone):
			proxyGone(e.w, e.sb.id)
			return
		case errors.Is(err, sandbox.ErrOutsideRoot):
			writeError(e.w, http.StatusBadRequest, "e2btest: path '%s' is outside the sandbox's own folders (/home, /tmp)", u.abs)
			return
		case err != nil:
			writeError(e.w, http.StatusBadRequest, "error writing file '%s': %s", u.abs, err)
			return
		}
		out = append(out, map[string]string{"path": u.abs, "name": path.Base(u.abs), "type": "file"})
	}
	writeJSON(e.w, http.StatusOK, out)
}

type pathRequest struct {
	Path string `json:"path"`
}

func (e *envdReq) fsStat(req *pathRequest) (any, *connectrpc.Error) {
	abs := e.sb.resolve(req.Path)
	ent, err := e.stat(abs)
	if err != nil {
		return nil, fsError("stat", abs, err)
	}
	return map[string]any{"entry": ent}, nil
}

type listDirRequest struct {
	Path  string `json:"path"`
	Depth uint32 `json:"depth"`
}

func (e *envdReq) fsListDir(req *listDirRequest) (any, *connectrpc.Error) {
	abs := e.sb.resolve(req.Path)
	ent, err := e.stat(abs)
	if err != nil {
		return nil, fsError("list", abs, err)
	}
	if !ent.isDir() {
		return nil, &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("path '%s' is not a directory", abs)}
	}
	depth := max(req.Depth, 1)
	entries := []entryJSON{}
	var walk func(dir string, level uint32) error
	walk = func(dir string, level uint32) error {
		list, err := e.sb.files().ReadDir(e.r.Context(), dir)
		if err != nil {
			return err
		}
		for _, fe := range list {
			p := path.Join(dir, fe.Name)
			entries = append(entries, toEntry(p, fe.IsDir, fe.Size, fe.ModTime))
			if fe.IsDir && level < depth {
				if err := walk(p, level+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(abs, 1); err != nil {
		return nil, fsError("list", abs, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	return map[string]any{"entries": entries}, nil
}

func (e *envdReq) fsMakeDir(req *pathRequest) (any, *connectrpc.Error) {
	abs := e.sb.resolve(req.Path)
	ent, err := e.stat(abs)
	switch {
	case errors.Is(err, sandbox.ErrGone):
		return nil, errGoneMidway
	case err == nil && ent.isDir():
		return nil, &connectrpc.Error{Code: connectrpc.CodeAlreadyExists, Message: fmt.Sprintf("directory '%s' already exists", abs)}
	case err == nil:
		return nil, &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("path '%s' already exists and is not a directory", abs)}
	}
	if err := e.sb.files().Mkdir(e.r.Context(), abs); err != nil {
		if errors.Is(err, sandbox.ErrOutsideRoot) {
			return nil, &connectrpc.Error{Code: connectrpc.CodePermissionDenied, Message: fmt.Sprintf("e2btest: path '%s' is outside the sandbox's own folders (/home, /tmp)", abs)}
		}
		return nil, fsError("mkdir", abs, err)
	}
	if ent, err = e.stat(abs); err != nil {
		return nil, fsError("mkdir", abs, err)
	}
	return map[string]any{"entry": ent}, nil
}

type moveRequest struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

// fsMove copies the source to the destination through the backend's file
// API, then removes the source.
func (e *envdReq) fsMove(req *moveRequest) (any, *connectrpc.Error) {
	src, dst := e.sb.resolve(req.Source), e.sb.resolve(req.Destination)
	ent, err := e.stat(src)
	if err != nil {
		return nil, fsError("move", src, err)
	}
	if src == dst {
		return map[string]any{"entry": ent}, nil
	}
	if strings.HasPrefix(dst, src+"/") {
		return nil, &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("cannot move '%s' into itself", src)}
	}
	if dent, err := e.stat(dst); err == nil && dent.isDir() {
		return nil, &connectrpc.Error{Code: connectrpc.CodeInvalidArgument, Message: fmt.Sprintf("destination '%s' is a directory", dst)}
	}
	fsys := e.sb.files()
	ctx := e.r.Context()
	var copyTree func(from, to string, isDir bool) error
	copyTree = func(from, to string, isDir bool) error {
		if !isDir {
			b, err := fsys.ReadFileBytes(ctx, from)
			if err != nil {
				return err
			}
			return fsys.WriteFile(ctx, to, b)
		}
		if err := fsys.Mkdir(ctx, to); err != nil {
			return err
		}
		list, err := fsys.ReadDir(ctx, from)
		if err != nil {
			return err
		}
		for _, fe := range list {
			if err := copyTree(path.Join(from, fe.Name), path.Join(to, fe.Name), fe.IsDir); err != nil {
				return err
			}
		}
		return nil
	}
	if err := copyTree(src, dst, ent.isDir()); err != nil {
		return nil, fsError("move", src, err)
	}
	if err := fsys.Remove(ctx, src); err != nil {
		return nil, fsError("move", src, err)
	}
	if ent, err = e.stat(dst); err != nil {
		return nil, fsError("move", dst, err)
	}
	return map[string]any{"entry": ent}, nil
}

func (e *envdReq) fsRemove(req *pathRequest) (any, *connectrpc.Error) {
	abs := e.sb.resolve(req.Path)
	err := e.sb.files().Remove(e.r.Context(), abs)
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist), errors.Is(err, sandbox.ErrOutsideRoot):
		return nil, nil // a missing path is not an error
	}
	return nil, fsError("remove", abs, err)
}
