package pip

import (
	"path"

	"github.com/spf13/afero"
)

// Venv returns the virtual environment exe belongs to, exe being the path
// a python3 or pip was run by (command.Call.Path: a venv's bin/python, a
// link to /usr/bin/python3): the folder above exe's when pyvenv.cfg is in
// exe's folder or that one, as CPython's site module finds it beside its
// executable. "" when exe is "" or in none.
func Venv(fsys afero.Fs, exe string) string {
	if exe == "" || !path.IsAbs(exe) {
		return ""
	}
	bin := path.Dir(exe)
	for _, d := range []string{bin, path.Dir(bin)} {
		if fi, err := fsys.Stat(path.Join(d, "pyvenv.cfg")); err == nil && fi.Mode().IsRegular() {
			return path.Dir(bin)
		}
	}
	return ""
}

// VenvSite is the site-packages folder of the virtual environment venv for
// CPython version py ("3.11.2"): venv/lib/python3.11/site-packages.
func VenvSite(venv, py string) string {
	return path.Join(venv, "lib", "python"+minorOf(py), "site-packages")
}
