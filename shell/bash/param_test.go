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

// Unquoted, $* and ${a[@]} are their elements joined by IFS's first
// character, then split: with a non-blank IFS an empty element is a
// field between two others. The output is bash 5.2.15's.
func TestUnquotedListSplit(t *testing.T) {
	script := `IFS=:; set -- "" ""; printf "<%s>" $*; echo; set -- "" "" ""; printf "<%s>" $*; echo
set -- a "" b; printf "<%s>" $*; echo; set -- "" a; printf "<%s>" $@; echo
set -- "a:" b; printf "<%s>" $*; echo; IFS=" :"; set -- "a " " b" "" ""; printf "<%s>" $*; echo
IFS=:; a=(x "" y); printf "<%s>" ${a[@]} x${a[*]}y; echo
`
	want := "<>\n<><>\n<a><><b>\n<><a>\n<a><><b>\n<a><b>\n<x><><y><xx><><yy>\n"
	if out, errs, code := runScript(t, script); out != want || errs != "" || code != 0 {
		t.Errorf("got %q, stderr %q, status %d; want %q", out, errs, code, want)
	}
}
