package pip

import (
	"testing"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionOrder(t *testing.T) {
	// Each is older than the next (PEP 440's examples).
	order := []string{"1.0.dev456", "1.0a1", "1.0a2.dev456", "1.0a12.dev456", "1.0a12", "1.0b1.dev456", "1.0b2",
		"1.0b2.post345.dev456", "1.0b2.post345", "1.0rc1.dev456", "1.0rc1", "1.0", "1.0+abc.5", "1.0.post456.dev34",
		"1.0.post456", "1.1.dev1", "1.10", "2!0.1"}
	for i := 0; i+1 < len(order); i++ {
		a, ok := parseVersion(order[i])
		require.True(t, ok, order[i])
		b, ok := parseVersion(order[i+1])
		require.True(t, ok, order[i+1])
		assert.Equal(t, -1, a.compare(b), "%s < %s", order[i], order[i+1])
		assert.Equal(t, 1, b.compare(a), "%s > %s", order[i+1], order[i])
	}
	a, _ := parseVersion("1.0")
	b, _ := parseVersion("1.0.0")
	assert.Equal(t, 0, a.compare(b))
	_, ok := parseVersion("not a version")
	assert.False(t, ok)
}

func TestSpecifiers(t *testing.T) {
	for _, tc := range []struct {
		spec, ver string
		ok        bool
	}{
		{">=1.0,<2", "1.5", true}, {">=1.0,<2", "2.0", false}, {"==1.2.*", "1.2.9", true}, {"==1.2.*", "1.3", false},
		{"!=1.2.*", "1.3", true}, {"~=1.4.2", "1.4.9", true}, {"~=1.4.2", "1.5", false}, {"~=2.2", "2.9", true},
		{"<2", "2.0rc1", false}, {">1.0", "1.0.post1", false}, {"==1.0", "1.0+local", true}, {"", "3", true},
	} {
		specs, ok := parseSpecifiers(tc.spec)
		require.True(t, ok, tc.spec)
		v, _ := parseVersion(tc.ver)
		assert.Equal(t, tc.ok, matches(specs, v), "%s %s", tc.ver, tc.spec)
	}
	_, ok := parseSpecifiers("=>1")
	assert.False(t, ok)
}

func TestMarkers(t *testing.T) {
	for _, tc := range []struct {
		marker, extra string
		ok            bool
	}{
		{"", "", true},
		{`python_version >= "3.8"`, "", true},
		{`python_version < "3.10"`, "", false},
		{`sys_platform == "win32"`, "", false},
		{`os_name == "posix" and platform_python_implementation == 'CPython'`, "", true},
		{`(sys_platform == "win32" or sys_platform == "darwin") and python_version > "3"`, "", false},
		{`extra == "socks"`, "", false},
		{`extra == "socks"`, "socks", true},
		{`extra == 'Test_Utils'`, "test-utils", true},
		{`"wasi" in sys_platform`, "", true},
		{`platform_machine not in "x86_64 aarch64"`, "", true},
		{`python_full_version >= "3.12.0"`, "", true},
	} {
		got, err := evalMarker(markerEnv(""), tc.marker, tc.extra)
		require.NoError(t, err, tc.marker)
		assert.Equal(t, tc.ok, got, "%s (extra %q)", tc.marker, tc.extra)
	}
	_, err := evalMarker(markerEnv(""), `no_such_var == "1"`, "")
	assert.Error(t, err)
}

// TestPythonVersion: markers and the site folder follow the CPython
// version WithPython gives (the wasm adapter's python image), 3.12.0 when
// none.
func TestPythonVersion(t *testing.T) {
	for _, tc := range []struct {
		py, marker string
		ok         bool
		site       string
	}{
		{"", `python_version == "3.12" and python_full_version == "3.12.0"`, true, ".local/lib/python3.12/site-packages"},
		{"3.11.2", `python_version == "3.11" and implementation_version == "3.11.2"`, true, ".local/lib/python3.11/site-packages"},
		{"3.11.2", `python_full_version >= "3.12.0"`, false, ".local/lib/python3.11/site-packages"},
		{"3.13.1", `python_version > "3.12"`, true, ".local/lib/python3.13/site-packages"},
	} {
		got, err := evalMarker(markerEnv(tc.py), tc.marker, "")
		require.NoError(t, err, tc.marker)
		assert.Equal(t, tc.ok, got, "%s on %q", tc.marker, tc.py)
		assert.Equal(t, tc.site, UserSite(tc.py), tc.py)
	}
}

func TestParseRequirement(t *testing.T) {
	r, err := parseRequirement(`Requests[socks, Security] (>=2.0,<3) ; python_version >= "3.7"`)
	require.NoError(t, err)
	assert.Equal(t, "Requests", r.name)
	assert.Equal(t, []string{"socks", "security"}, r.extras)
	assert.Equal(t, ">=2.0,<3", r.spec)
	assert.Equal(t, `python_version >= "3.7"`, r.marker)
	for _, bad := range []string{"", "==1", "pkg @ https://example.invalid/x.whl", "pkg =>1"} {
		_, err := parseRequirement(bad)
		assert.Error(t, err, bad)
	}
	assert.Equal(t, "zope-interface", normalize("Zope.Interface"))
	assert.Equal(t, "a-b-c", normalize("A__b-.C"))
}

func TestWheelInfo(t *testing.T) {
	for _, tc := range []struct {
		name string
		ver  string
		pure bool
	}{
		{"six-1.16.0-py2.py3-none-any.whl", "1.16.0", true},
		{"idna-3.6-py3-none-any.whl", "3.6", true},
		{"numpy-1.26.4-cp312-cp312-manylinux_2_17_x86_64.whl", "1.26.4", false},
		{"oldpkg-1.0-py2-none-any.whl", "1.0", false},
		{"pkg-2.0.tar.gz", "2.0", false},
	} {
		v, pure := wheelInfo(tc.name)
		assert.Equal(t, tc.ver, v.raw, tc.name)
		assert.Equal(t, tc.pure, pure, tc.name)
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int]string{999: "999 bytes", 1500: "1.5 kB", 43000: "43 kB", 2500000: "2.5 MB"} {
		assert.Equal(t, want, formatSize(n))
	}
}

func FuzzMarkers(f *testing.F) {
	for _, s := range []string{`python_version >= "3.8"`, `(extra == "a" or os_name != 'nt')`, `"x" in`, `((`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, m string) {
		_, _ = evalMarker(markerEnv(""), m, "e") // never panics
		_, _ = parseRequirement("p; " + m)
	})
}

// TestVenv: the virtual environment a python3 or pip run by a path belongs
// to, found as CPython's site finds it (pyvenv.cfg beside the executable or
// one folder up; the environment is the folder above the executable's),
// and the site-packages pip then installs into.
func TestVenv(t *testing.T) {
	fsys := afero.NewMemMapFs()
	for _, f := range []string{"/home/user/v/pyvenv.cfg", "/home/user/w/bin/pyvenv.cfg"} {
		if err := afero.WriteFile(fsys, f, []byte("home = /usr/bin\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.MkdirAll("/home/user/d/pyvenv.cfg", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ exe, want string }{
		{"/home/user/v/bin/pip", "/home/user/v"},
		{"/home/user/v/bin/python3", "/home/user/v"},
		{"/home/user/w/bin/python", "/home/user/w"},
		{"/home/user/d/bin/pip", ""}, // a folder named pyvenv.cfg
		{"/home/user/x/bin/pip", ""},
		{"/usr/bin/pip", ""},
		{"v/bin/pip", ""},
		{"", ""},
	} {
		if got := Venv(fsys, tt.exe); got != tt.want {
			t.Errorf("Venv(%q) = %q, want %q", tt.exe, got, tt.want)
		}
	}
	if got, want := VenvSite("/home/user/v", "3.11.2"), "/home/user/v/lib/python3.11/site-packages"; got != want {
		t.Errorf("VenvSite = %q, want %q", got, want)
	}
}
