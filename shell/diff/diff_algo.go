package diff

import "context"

// The line-matching of GNU diff (analyze.c and gnulib's diffseq.h),
// ported so that the hunks come out as GNU's do: the identical ends are
// set aside, lines matching nothing in the other file are discarded, the
// rest is compared with Myers' O(ND) middle-snake search, and the changed
// runs are slid to their conventional place.

// diffChange is one change of an edit script: deleted lines of file 0
// from line0 and inserted lines of file 1 from line1 (0-based).
type diffChange struct {
	line0, line1      int
	deleted, inserted int
}

// diffLines compares two files' lines given as equivalence classes (equal
// lines have equal classes, all > 0) and returns the edit script in
// order. horizon is the number of identical lines kept next to the
// changes (the context of the output), as GNU's --horizon-lines.
func diffLines(ctx context.Context, eq0, eq1 []int, horizon int, minimal bool) []diffChange {
	n0, n1 := len(eq0), len(eq1)
	// The identical prefix and suffix, less the horizon.
	pre := 0
	for pre < n0 && pre < n1 && eq0[pre] == eq1[pre] {
		pre++
	}
	suf := 0
	for suf < n0-pre && suf < n1-pre && eq0[n0-1-suf] == eq1[n1-1-suf] {
		suf++
	}
	pre = max(0, pre-horizon)
	suf = max(0, suf-horizon)
	a := &diffFileData{equivs: eq0[pre : n0-suf]}
	b := &diffFileData{equivs: eq1[pre : n1-suf]}
	a.changed = make([]bool, len(a.equivs)+2)
	b.changed = make([]bool, len(b.equivs)+2)
	maxClass := 0
	for _, e := range a.equivs {
		maxClass = max(maxClass, e)
	}
	for _, e := range b.equivs {
		maxClass = max(maxClass, e)
	}
	diffDiscardConfusing(a, b, maxClass, minimal)
	dc := &diffCtx{xv: a.undiscarded, yv: b.undiscarded, a: a, b: b, ctx: ctx}
	diags := len(a.undiscarded) + len(b.undiscarded) + 3
	dc.fd = make([]int, diags)
	dc.bd = make([]int, diags)
	dc.off = len(b.undiscarded) + 1
	tooExpensive := 1
	for d := diags; d != 0; d >>= 2 {
		tooExpensive <<= 1
	}
	dc.tooExpensive = max(4096, tooExpensive)
	dc.compareseq(0, len(a.undiscarded), 0, len(b.undiscarded), minimal)
	if ctx.Err() != nil {
		return nil
	}
	diffShiftBoundaries(a, b)
	diffShiftBoundaries(b, a)
	// build_script, forwards.
	var script []diffChange
	i0, i1 := 0, 0
	l0, l1 := len(a.equivs), len(b.equivs)
	for i0 < l0 || i1 < l1 {
		if a.isChanged(i0) || b.isChanged(i1) {
			s0, s1 := i0, i1
			for a.isChanged(i0) {
				i0++
			}
			for b.isChanged(i1) {
				i1++
			}
			script = append(script, diffChange{pre + s0, pre + s1, i0 - s0, i1 - s1})
		}
		i0++
		i1++
	}
	return script
}

// diffFileData is one file's middle part during the analysis. changed is
// indexed from -1 (changed[i+1] is line i) so that both ends have a
// false sentinel.
type diffFileData struct {
	equivs      []int
	changed     []bool
	undiscarded []int
	realindexes []int
}

func (f *diffFileData) isChanged(i int) bool     { return f.changed[i+1] }
func (f *diffFileData) setChanged(i int, v bool) { f.changed[i+1] = v }

// diffDiscardConfusing is GNU's discard_confusing_lines.
func diffDiscardConfusing(a, b *diffFileData, maxClass int, minimal bool) {
	files := [2]*diffFileData{a, b}
	var counts [2][]int
	for f := 0; f < 2; f++ {
		counts[f] = make([]int, maxClass+1)
		for _, e := range files[f].equivs {
			counts[f][e]++
		}
	}
	var discarded [2][]byte
	for f := 0; f < 2; f++ {
		end := len(files[f].equivs)
		discards := make([]byte, end)
		other := counts[1-f]
		many := 5
		for tem := end / 64; ; {
			tem >>= 2
			if tem <= 0 {
				break
			}
			many *= 2
		}
		for i, e := range files[f].equivs {
			if e == 0 {
				continue
			}
			switch n := other[e]; {
			case n == 0:
				discards[i] = 1
			case n > many:
				discards[i] = 2
			}
		}
		discarded[f] = discards
	}
	for f := 0; f < 2; f++ {
		discards := discarded[f]
		end := len(discards)
		for i := 0; i < end; i++ {
			if discards[i] == 2 {
				discards[i] = 0
				continue
			}
			if discards[i] == 0 {
				continue
			}
			// A run of discardable lines starting with a sure one.
			j := i
			provisional := 0
			for ; j < end; j++ {
				if discards[j] == 0 {
					break
				}
				if discards[j] == 2 {
					provisional++
				}
			}
			for j > i && discards[j-1] == 2 {
				j--
				discards[j] = 0
				provisional--
			}
			length := j - i
			if provisional*4 > length {
				for j > i {
					j--
					if discards[j] == 2 {
						discards[j] = 0
					}
				}
				continue
			}
			minimum := 1
			for tem := length >> 2; ; {
				tem >>= 2
				if tem <= 0 {
					break
				}
				minimum <<= 1
			}
			minimum++
			consec := 0
			for j = 0; j < length; j++ {
				if discards[i+j] != 2 {
					consec = 0
				} else if consec++; minimum == consec {
					j -= consec
				} else if minimum < consec {
					discards[i+j] = 0
				}
			}
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && discards[i+j] == 1 {
					break
				}
				if discards[i+j] == 2 {
					consec = 0
					discards[i+j] = 0
				} else if discards[i+j] == 0 {
					consec = 0
				} else {
					consec++
				}
				if consec == 3 {
					break
				}
			}
			i += length - 1
			consec = 0
			for j = 0; j < length; j++ {
				if j >= 8 && discards[i-j] == 1 {
					break
				}
				if discards[i-j] == 2 {
					consec = 0
					discards[i-j] = 0
				} else if discards[i-j] == 0 {
					consec = 0
				} else {
					consec++
				}
				if consec == 3 {
					break
				}
			}
		}
	}
	for f := 0; f < 2; f++ {
		fd := files[f]
		for i, e := range fd.equivs {
			if minimal || discarded[f][i] == 0 {
				fd.undiscarded = append(fd.undiscarded, e)
				fd.realindexes = append(fd.realindexes, i)
			} else {
				fd.setChanged(i, true)
			}
		}
	}
}

// diffCtx is the state of compareseq. fd and bd are indexed by diagonal
// plus off.
type diffCtx struct {
	xv, yv       []int
	a, b         *diffFileData
	fd, bd       []int
	off          int
	tooExpensive int
	ctx          context.Context
}

type diffPartition struct {
	xmid, ymid           int
	loMinimal, hiMinimal bool
}

// diag finds the midpoint of the shortest edit script for a part of the
// vectors (gnulib's diag, without the speed_large_files heuristic).
func (c *diffCtx) diag(xoff, xlim, yoff, ylim int, findMinimal bool) diffPartition {
	fd, bd, off := c.fd, c.bd, c.off
	xv, yv := c.xv, c.yv
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax := fmid, fmid
	bmin, bmax := bmid, bmid
	odd := (fmid-bmid)&1 != 0
	const offsetMax = int(^uint(0) >> 1)
	fd[off+fmid] = xoff
	bd[off+bmid] = xlim
	for cost := 1; ; cost++ {
		if cost%64 == 0 && c.ctx.Err() != nil {
			return diffPartition{xoff, yoff, true, true}
		}
		if fmin > dmin {
			fmin--
			fd[off+fmin-1] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[off+fmax+1] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := fd[off+d-1], fd[off+d+1]
			x0 := thi
			if tlo >= thi {
				x0 = tlo + 1
			}
			x, y := x0, x0-d
			for x < xlim && y < ylim && xv[x] == yv[y] {
				x++
				y++
			}
			fd[off+d] = x
			if odd && bmin <= d && d <= bmax && bd[off+d] <= x {
				return diffPartition{x, y, true, true}
			}
		}
		if bmin > dmin {
			bmin--
			bd[off+bmin-1] = offsetMax
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[off+bmax+1] = offsetMax
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := bd[off+d-1], bd[off+d+1]
			x0 := thi - 1
			if tlo < thi {
				x0 = tlo
			}
			x, y := x0, x0-d
			for xoff < x && yoff < y && xv[x-1] == yv[y-1] {
				x--
				y--
			}
			bd[off+d] = x
			if !odd && fmin <= d && d <= fmax && x <= fd[off+d] {
				return diffPartition{x, y, true, true}
			}
		}
		if findMinimal {
			continue
		}
		if cost >= c.tooExpensive {
			fxybest, fxbest := -1, 0
			for d := fmax; d >= fmin; d -= 2 {
				x := min(fd[off+d], xlim)
				y := x - d
				if ylim < y {
					x, y = ylim+d, ylim
				}
				if fxybest < x+y {
					fxybest, fxbest = x+y, x
				}
			}
			bxybest, bxbest := offsetMax, 0
			for d := bmax; d >= bmin; d -= 2 {
				x := max(xoff, bd[off+d])
				y := x - d
				if y < yoff {
					x, y = yoff+d, yoff
				}
				if x+y < bxybest {
					bxybest, bxbest = x+y, x
				}
			}
			if (xlim+ylim)-bxybest < fxybest-(xoff+yoff) {
				return diffPartition{fxbest, fxybest - fxbest, true, false}
			}
			return diffPartition{bxbest, bxybest - bxbest, false, true}
		}
	}
}

// compareseq marks the changed lines between the given bounds.
func (c *diffCtx) compareseq(xoff, xlim, yoff, ylim int, findMinimal bool) {
	if c.ctx.Err() != nil {
		return
	}
	xv, yv := c.xv, c.yv
	for xoff < xlim && yoff < ylim && xv[xoff] == yv[yoff] {
		xoff++
		yoff++
	}
	for xoff < xlim && yoff < ylim && xv[xlim-1] == yv[ylim-1] {
		xlim--
		ylim--
	}
	switch {
	case xoff == xlim:
		for ; yoff < ylim; yoff++ {
			c.b.setChanged(c.b.realindexes[yoff], true)
		}
	case yoff == ylim:
		for ; xoff < xlim; xoff++ {
			c.a.setChanged(c.a.realindexes[xoff], true)
		}
	default:
		p := c.diag(xoff, xlim, yoff, ylim, findMinimal)
		c.compareseq(xoff, p.xmid, yoff, p.ymid, p.loMinimal)
		c.compareseq(p.xmid, xlim, p.ymid, ylim, p.hiMinimal)
	}
}

// diffShiftBoundaries is GNU's shift_boundaries for one file against the
// other: it slides runs of changes to merge them and to end them where
// the other file's changes end.
func diffShiftBoundaries(f, o *diffFileData) {
	changed := func(i int) bool { return f.changed[i+1] }
	set := func(i int, v bool) { f.changed[i+1] = v }
	other := func(j int) bool { return o.changed[j+1] }
	equivs := f.equivs
	i, j := 0, 0
	iEnd := len(equivs)
	for {
		for i < iEnd && !changed(i) {
			for other(j) {
				j++
			}
			j++
			i++
		}
		if i == iEnd {
			break
		}
		start := i
		for i++; changed(i); i++ {
		}
		for other(j) {
			j++
		}
		var runlength, corresponding int
		for {
			runlength = i - start
			for start > 0 && equivs[start-1] == equivs[i-1] {
				start--
				set(start, true)
				i--
				set(i, false)
				for changed(start - 1) {
					start--
				}
				j--
				for other(j) {
					j--
				}
			}
			corresponding = iEnd
			if other(j - 1) {
				corresponding = i
			}
			for i != iEnd && equivs[start] == equivs[i] {
				set(start, false)
				start++
				set(i, true)
				i++
				for changed(i) {
					i++
				}
				j++
				for other(j) {
					j++
					corresponding = i
				}
			}
			if runlength == i-start {
				break
			}
		}
		for corresponding < i {
			start--
			set(start, true)
			i--
			set(i, false)
			j--
			for other(j) {
				j--
			}
		}
	}
}
