package cmdutil

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type record struct {
	line string
	term bool
}

func readAll(ctx context.Context, r io.Reader, delim byte) ([]record, error) {
	var got []record
	err := ReadLines(ctx, r, delim, func(line []byte, term bool) error {
		got = append(got, record{string(line), term})
		return nil
	})
	return got, err
}

// zeroReader returns (0, nil) for ever.
type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReadLines(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	errRead := errors.New("read failed")
	for _, c := range []struct {
		name  string
		r     io.Reader
		delim byte
		want  []record
		err   error
	}{
		{name: "empty", r: strings.NewReader("")},
		{name: "lines", r: strings.NewReader("a\n\nb\n"), delim: '\n', want: []record{{"a", true}, {"", true}, {"b", true}}},
		{name: "unterminated", r: strings.NewReader("a\nb"), delim: '\n', want: []record{{"a", true}, {"b", false}}},
		{name: "nul", r: strings.NewReader("a\x00b\nc\x00"), delim: 0, want: []record{{"a", true}, {"b\nc", true}}},
		{name: "one byte reads", r: iotest.OneByteReader(strings.NewReader("ab\ncd")), delim: '\n', want: []record{{"ab", true}, {"cd", false}}},
		{name: "data with EOF", r: iotest.DataErrReader(strings.NewReader("ab\ncd")), delim: '\n', want: []record{{"ab", true}, {"cd", false}}},
		{name: "longer than the buffer", r: iotest.HalfReader(strings.NewReader(long + "\n" + long)), delim: '\n', want: []record{{long, true}, {long, false}}},
		{name: "error drops the partial record", r: io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(errRead)), delim: '\n', want: []record{{"a", true}}, err: errRead},
		{name: "no progress", r: zeroReader{}, delim: '\n', err: io.ErrNoProgress},
	} {
		got, err := readAll(context.Background(), c.r, c.delim)
		if !errors.Is(err, c.err) || !slices.Equal(got, c.want) {
			t.Errorf("%s: %d records %v, error %v; want %d records, error %v", c.name, len(got), got[:min(len(got), 3)], err, len(c.want), c.err)
		}
	}
}

// TestReadLinesStops: an ended context stops the reading before the first
// read, and within lineCheckEvery records of a buffer; fn's error ends it.
func TestReadLinesStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := readAll(ctx, strings.NewReader("a\n"), '\n'); err != context.Canceled || len(got) != 0 {
		t.Errorf("ended context: %v, %v", got, err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	n := 0
	err := ReadLines(ctx, strings.NewReader(strings.Repeat("a\n", 1000)), '\n', func([]byte, bool) error {
		if n++; n == 10 {
			cancel()
		}
		return nil
	})
	if err != context.Canceled || n > lineCheckEvery {
		t.Errorf("cancelled at record 10: %d records, %v", n, err)
	}
	stop := errors.New("stop")
	n = 0
	err = ReadLines(context.Background(), strings.NewReader("a\nb\nc\n"), '\n', func([]byte, bool) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Errorf("fn's error: %d records, %v", n, err)
	}
}

// emptyReader gives nothing and no error, for ever.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// TestRefill: the unused data moves to the front, a full buffer doubles,
// and a reader that gives nothing ends in io.ErrNoProgress on its 100th
// read in a row.
func TestRefill(t *testing.T) {
	empty := 0
	buf := []byte("abcdef")
	buf, end, err := Refill(strings.NewReader("XYZ"), buf, 4, 6, &empty)
	require.NoError(t, err)
	assert.Equal(t, "efXYZ", string(buf[:end]), "ef moved to the front, the read after it")
	assert.Len(t, buf, 6)

	buf, end, err = Refill(strings.NewReader("123456789"), []byte("abcd"), 0, 4, &empty)
	require.NoError(t, err)
	assert.Equal(t, "abcd1234", string(buf[:end]), "a full buffer doubles")
	assert.Len(t, buf, 8)

	_, _, err = Refill(strings.NewReader(""), buf, 0, 0, &empty)
	assert.ErrorIs(t, err, io.EOF)

	empty = 0
	for i := 1; i < 100; i++ {
		_, _, err = Refill(emptyReader{}, buf, 0, 0, &empty)
		require.NoError(t, err, "read %d", i)
	}
	_, _, err = Refill(emptyReader{}, buf, 0, 0, &empty)
	assert.ErrorIs(t, err, io.ErrNoProgress)
	_, _, err = Refill(strings.NewReader("x"), buf, 0, 0, &empty)
	require.NoError(t, err)
	assert.Zero(t, empty, "a read that gave data starts the count again")
}
