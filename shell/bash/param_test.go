package bash

import "testing"

// ${a[*]:-w} tests $* joined: by IFS's first character inside double
// quotes, by spaces outside them. The output is bash 5.2.15's.
func TestStarDefault(t *testing.T) {
	script := `a=("" ""); printf "<%s>" ${a[*]:-u}; echo
IFS=; printf "<%s>" "${a[*]:-u}" ${a[*]:-u}; echo
IFS=:; printf "<%s>" "${a[*]:-u}"; echo
unset IFS; printf "<%s>" "${a[*]:+v}" "${*:+v}"; echo
IFS=; b=(""); printf "<%s>" "${b[*]:-u}" ${b[*]:-u} ${b[*]-u}; echo
IFS=:; set --; printf "<%s>" "${*:-u}" ${*:-u}; echo
`
	want := "<>\n<u>\n<:>\n<v><>\n<u><u>\n<u><u>\n"
	if out, errs, code := runScript(t, script); out != want || errs != "" || code != 0 {
		t.Errorf("got %q, stderr %q, status %d; want %q", out, errs, code, want)
	}
}
