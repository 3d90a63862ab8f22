package engine

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// A clone serves only files where every path CPython's start looked up is
// missing, as in the template's.
func TestCloneLookups(t *testing.T) {
	_, py := python(t)
	tm, err := py.template(context.Background(), py.prestartFor("python3", map[string]string{"HOME": "/home/user"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the start looked up: %q", tm.looked)
	if len(tm.looked) == 0 {
		t.Fatal("the start looked up nothing in /: the record is not working")
	}
	fsys, files := testFS(t)
	if !tm.serves(fsys) {
		t.Error("an empty FS is not served")
	}
	if err := files.MkdirAll("/work", 0o755); err != nil {
		t.Fatal(err)
	}
	if !tm.serves(fsys) {
		t.Error("a folder the start never looks at stops clones")
	}
	if err := files.MkdirAll(tm.looked[len(tm.looked)-1], 0o755); err != nil {
		t.Fatal(err)
	}
	if tm.serves(fsys) {
		t.Errorf("%s exists, and the start looked it up: still served", tm.looked[len(tm.looked)-1])
	}
}

// Two clones of one template draw different random numbers.
func TestClonesRandom(t *testing.T) {
	if !canMapData {
		t.Skip("clones need memory mappings (Linux)")
	}
	_, py := python(t)
	fsys, _ := testFS(t)
	seen := map[string]bool{}
	for range 2 {
		w, err := py.Prestart(context.Background(), WarmSpec{FS: fsys}, "python3", nil)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code, err := w.Run(context.Background(), RunSpec{Args: pyc("import random, os; print(random.random(), os.urandom(8).hex())"), Stdout: &out, Stderr: &errb, Timeout: time.Minute})
		w.Close()
		if code != 0 || err != nil {
			t.Fatalf("exit %d, %v: %s", code, err, errb.String())
		}
		seen[out.String()] = true
	}
	if len(seen) != 2 {
		t.Errorf("two clones printed the same random numbers: %v", seen)
	}
}
