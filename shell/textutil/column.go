package textutil

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textColumn, "column") }

var columnFlags = cmdutil.Flags{
	Short: "ts:o:c:xn",
	Long: map[string]string{
		"table": "t", "separator": "s:", "output-separator": "o:", "output-width": "c:",
		"fillrows": "x",
	},
}

// textColumn is column (util-linux): columnate lists.
//
// Supports -t/--table (with -s SEPS, -o SEP: cells padded to their
// column's width, empty lines skipped) and the default fill mode (-c
// WIDTH or $COLUMNS, else 80; -x fills rows first).
func textColumn(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(columnFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "column", 1, err)
	}
	table, fillRows := false, false
	seps, outSep := "", "  "
	width := 80
	if v, ok := c.Env("COLUMNS"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			width = n
		}
	}
	for _, o := range opts {
		switch o.Key {
		case "t":
			table = true
		case "s":
			seps = o.Val
		case "o":
			outSep = o.Val
		case "c":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n <= 0 {
				return c.Errorf(1, "column", "invalid columns argument: %s", cmdutil.Quote(o.Val))
			}
			width = n
		case "x":
			fillRows = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var lines []string
	for _, name := range files {
		r, err := cmdutil.Open(c, name)
		if err != nil {
			return c.Errorf(1, "column", "cannot open %s: %s", name, cmdutil.ErrText(err))
		}
		err = cmdutil.ReadLines(ctx, r, '\n', func(line []byte, _ bool) error {
			lines = append(lines, string(line))
			return nil
		})
		r.Close()
		if err != nil {
			return cmdutil.Finish(c, "column", err)
		}
	}
	out := cmdutil.NewOut(c)
	if table {
		columnTable(out, lines, seps, outSep)
	} else {
		columnFill(out, lines, width, fillRows)
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "column", err)
	}
	return nil
}

func columnTable(out cmdutil.Out, lines []string, seps, outSep string) {
	var rows [][]string
	widths := []int{}
	for _, l := range lines {
		var cells []string
		if seps == "" {
			cells = strings.Fields(l)
		} else {
			if strings.Trim(l, " \t") == "" {
				continue
			}
			cells = columnSplit(l, seps)
		}
		if len(cells) == 0 {
			continue
		}
		for i, cell := range cells {
			w := utf8.RuneCountInString(cell)
			if i >= len(widths) {
				widths = append(widths, w)
			} else {
				widths[i] = max(widths[i], w)
			}
		}
		rows = append(rows, cells)
	}
	for _, cells := range rows {
		for i := range widths {
			cell := ""
			if i < len(cells) {
				cell = cells[i]
			}
			out.WriteString(cell)
			if i < len(widths)-1 {
				out.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)))
				out.WriteString(outSep)
			}
		}
		out.WriteByte('\n')
	}
}

// columnSplit splits a line at any of the separator characters.
func columnSplit(l, seps string) []string {
	var cells []string
	start := 0
	for i, r := range l {
		if strings.ContainsRune(seps, r) {
			cells = append(cells, l[start:i])
			start = i + utf8.RuneLen(r)
		}
	}
	return append(cells, l[start:])
}

func columnFill(out cmdutil.Out, lines []string, width int, fillRows bool) {
	var items []string
	maxLen := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			continue
		}
		items = append(items, l)
		maxLen = max(maxLen, utf8.RuneCountInString(l))
	}
	if len(items) == 0 {
		return
	}
	maxLen = (maxLen + 8) &^ 7
	numCols := max(1, width/maxLen)
	if width < maxLen {
		numCols = 1
	}
	numRows := (len(items) + numCols - 1) / numCols
	tabsTo := func(chcnt, endcol int) int {
		for {
			cnt := (chcnt + 8) &^ 7
			if cnt > endcol {
				return chcnt
			}
			out.WriteByte('\t')
			chcnt = cnt
		}
	}
	if fillRows {
		for i := 0; i < len(items); {
			chcnt, endcol := 0, maxLen
			for col := 0; col < numCols && i < len(items); col++ {
				out.WriteString(items[i])
				chcnt += utf8.RuneCountInString(items[i])
				i++
				if col == numCols-1 || i >= len(items) {
					break
				}
				chcnt = tabsTo(chcnt, endcol)
				endcol += maxLen
			}
			out.WriteByte('\n')
		}
		return
	}
	for row := 0; row < numRows; row++ {
		chcnt, endcol := 0, maxLen
		for base, col := row, 0; col < numCols; col++ {
			out.WriteString(items[base])
			chcnt += utf8.RuneCountInString(items[base])
			if base += numRows; base >= len(items) {
				break
			}
			chcnt = tabsTo(chcnt, endcol)
			endcol += maxLen
		}
		out.WriteByte('\n')
	}
}
