package engine

import "testing"

// TestAttach checks that a value attached to an image is made once per key
// and kept with that image only.
func TestAttach(t *testing.T) {
	type keyA struct{}
	type keyB struct{}
	a, b := &Image{}, &Image{}
	made := 0
	mk := func() any { made++; return new(int) }
	v1 := a.Attach(keyA{}, mk)
	if v2 := a.Attach(keyA{}, mk); v2 != v1 {
		t.Errorf("the second Attach with the same key made another value")
	}
	if made != 1 {
		t.Errorf("mk ran %d times for one key, want 1", made)
	}
	if v := a.Attach(keyB{}, mk); v == v1 {
		t.Errorf("another key got the same value")
	}
	if v := b.Attach(keyA{}, mk); v == v1 {
		t.Errorf("another image got the first image's value")
	}
}
