// Package textutil holds the text coreutils: head, tail, sort, uniq, wc,
// cut, tr, paste, nl, fold, expand, column, comm, seq, od, xxd, base64,
// sums, tee, tac, rev, expr, basename, dirname, yes. Each registers in
// shell/command from its init.
package textutil
