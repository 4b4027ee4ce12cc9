package render

import (
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// Row is one row of a collapsed list: an item (its index in the list) or,
// when Summary is set, a summary of Count items left out. An item's row
// with More set counts the Count items left out as well, at its end
// ("(+49 more)"): the one row of a box one row high.
type Row struct {
	Item    int
	Summary string
	More    string
	Count   int // the items a summary row, or More, stands for
}

// Collapse chooses at most rows rows to show a list in. Two rules hold
// whatever the room:
//
//   - every item is accounted for: it is shown, or counted by a summary
//     row ("✓ 12 completed", "… 25 more pending", "… 7 more above (5
//     completed, 2 pending)");
//   - every item in progress is shown while the rows hold one row each
//     and the summary the rest needs; when they do not, the summary row
//     counts the items in progress it hides ("… 30 more (2 in progress,
//     …)").
//
// A list that fits is shown whole. Otherwise, from the most context to
// the least: the run from the first item in progress to the last (or,
// with none, the first pending item, else the last item) with the items
// around it (about a third of the spare room before it) and a summary row
// above and below; else the items in progress alone, a summary row for
// each run between them, and the spare rows spent on their neighbours;
// else the items in progress with the runs between them summarised in
// order while rows last, the rest in one last row. With no room at all
// (rows < 1) it returns nil; in one row, the first of them is shown with
// a count of the rest after it (see Row).
func Collapse(items []todo.Item, rows int) []Row {
	n := len(items)
	if rows < 1 || n == 0 {
		return nil
	}
	if n <= rows {
		out := make([]Row, n)
		for i := range out {
			out[i].Item = i
		}
		return out
	}
	focus := focusItems(items)
	if out := collapseWindow(items, focus[0], focus[len(focus)-1], rows); out != nil {
		return out
	}
	return collapseScattered(items, focus, rows)
}

// BoxRowsFor is the height (frame included) TaskBoxIn needs to show
// every item in progress of items with the rest counted: one row per
// item in progress and one summary row, or 0 when none is in progress.
// A panel given less hides items in progress (and says how many).
func BoxRowsFor(items []todo.Item) int {
	k := 0
	for _, it := range items {
		if it.Status == todo.StatusInProgress {
			k++
		}
	}
	switch {
	case k == 0:
		return 0
	case k == len(items):
		return k + 2
	}
	return k + 3
}

// focusItems are the items Collapse shows first: every item in progress
// or, with none, the first pending one, else the last item.
func focusItems(items []todo.Item) []int {
	var active []int
	for i, it := range items {
		if it.Status == todo.StatusInProgress {
			active = append(active, i)
		}
	}
	if len(active) > 0 {
		return active
	}
	for i, it := range items {
		if it.Status == todo.StatusPending {
			return []int{i}
		}
	}
	return []int{len(items) - 1}
}

// collapseWindow shows the items a0..a1 and the items around them, about
// a third of the spare room before, in one window with a summary row for
// what lies above and below it: the widest such window that fits in rows,
// or nil when even a0..a1 alone and its summaries do not.
func collapseWindow(items []todo.Item, a0, a1, rows int) []Row {
	n, span := len(items), a1-a0+1
	for w := rows; w >= span; w-- {
		start := max(min(a0-(w-span)/3, n-w), 0)
		end := start + w
		used := w
		if start > 0 {
			used++
		}
		if end < n {
			used++
		}
		if used > rows {
			continue
		}
		shown := make([]bool, n)
		for i := start; i < end; i++ {
			shown[i] = true
		}
		return rowsOf(items, shown, rows)
	}
	return nil
}

// collapseScattered shows the focus items without what lies between
// them: with a summary row for each run left out when there is room for
// that (the rows to spare going to their neighbours), else with the runs
// summarised in order while rows last and the rest counted in one last
// row; when the focus items fill the rows, the last of them counts the
// rest at its end (Row.More).
func collapseScattered(items []todo.Item, focus []int, rows int) []Row {
	n := len(items)
	shown := make([]bool, n)
	if len(focus) >= rows {
		// No row to spare for a summary: the last row counts the rest.
		out := make([]Row, rows)
		for i, f := range focus[:rows] {
			shown[f] = true
			out[i].Item = f
		}
		last := &out[rows-1]
		last.More, last.Count = more(items, shown)
		return out
	}
	for _, i := range focus {
		shown[i] = true
	}
	spare(shown, focus, rows)
	return rowsOf(items, shown, rows)
}

// spare spends the rows to spare on the items next to the focus ones
// (shown already), the nearest first, those after them before those
// before them. Showing the only item left out between two shown ones
// costs no row (its summary row goes), so it is done even when the runs
// left out are counted together for want of rows.
func spare(shown []bool, focus []int, rows int) {
	n := len(shown)
	count, runs := len(focus), len(gaps(shown))
	for d := 1; d < n; d++ {
		grew := false
		for _, side := range [2]int{d, -d} {
			for _, f := range focus {
				j := f + side
				if j < 0 || j >= n || shown[j] || !shown[j-sign(side)] {
					continue // gone, shown, or not next to what is shown from f
				}
				closes := (j == 0 || shown[j-1]) && (j == n-1 || shown[j+1])
				c, r := count+1, runs
				if closes {
					r--
				}
				if c+r > rows && (!closes || c >= rows) {
					continue
				}
				shown[j], count, runs, grew = true, c, r, true
			}
		}
		if !grew {
			return
		}
	}
}

// sign is -1, 0 or 1.
func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// more counts the items not shown, for the end of the last row:
// "(+49 more)", or "(+49 more, 4 in progress)" when some of them are in
// progress.
func more(items []todo.Item, shown []bool) (string, int) {
	n, active := 0, 0
	for i, it := range items {
		if !shown[i] {
			n++
			if it.Status == todo.StatusInProgress {
				active++
			}
		}
	}
	s := "(+" + strconv.Itoa(n) + " more"
	if active > 0 {
		s += ", " + strconv.Itoa(active) + " in progress"
	}
	return s + ")", n
}

// gaps are the runs [lo, hi) of items not shown.
func gaps(shown []bool) [][2]int {
	var out [][2]int
	for i := 0; i < len(shown); {
		if shown[i] {
			i++
			continue
		}
		j := i
		for j < len(shown) && !shown[j] {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// rowsOf lays out the items shown, in order, with a summary row for each
// run left out while there are rows for them; when there are not, the
// runs from the last one that fits on are counted together in one last
// row.
func rowsOf(items []todo.Item, shown []bool, rows int) []Row {
	n := len(items)
	runs := gaps(shown)
	count := 0
	for _, s := range shown {
		if s {
			count++
		}
	}
	own := len(runs) // runs with a summary row of their own
	if count+own > rows {
		own = max(rows-count-1, 0)
	}
	out := make([]Row, 0, rows)
	var rest []todo.Item
	r := 0
	for i := 0; i < n; {
		if shown[i] {
			out = append(out, Row{Item: i})
			i++
			continue
		}
		lo, hi := runs[r][0], runs[r][1]
		if r < own {
			where := "between"
			switch {
			case lo == 0:
				where = "above"
			case hi == n:
				where = "below"
			}
			out = append(out, Row{Item: -1, Summary: summary(items[lo:hi], where), Count: hi - lo})
		} else {
			rest = append(rest, items[lo:hi]...)
		}
		r++
		i = hi
	}
	if len(rest) > 0 {
		where := "" // runs in several places
		if r := runs[own]; len(rest) == r[1]-r[0] {
			where = "between" // one run: say where it is
			switch {
			case r[0] == 0:
				where = "above"
			case r[1] == n:
				where = "below"
			}
		}
		out = append(out, Row{Item: -1, Summary: summary(rest, where), Count: len(rest)})
	}
	return out
}

// summary describes items left out of a collapsed list, where they are
// ("above", "below", "between"; "" for several places, "all" when no item
// is shown): "✓ 12 completed", "… 25 more pending", "… 7 more above (5
// completed, 2 pending)". Items in progress come first in its counts.
func summary(items []todo.Item, where string) string {
	s := todo.Snapshot{Items: items}
	done, active, pending := s.Counts()
	n := strconv.Itoa(len(items))
	more := "more"
	if where == "all" {
		more, where = "items", ""
	}
	switch len(items) {
	case done:
		return IconDone + " " + n + " completed"
	case pending:
		if more == "items" {
			return IconPending + " " + n + " pending"
		}
		return "… " + n + " more pending"
	case active:
		if more == "items" {
			return IconActive + " " + n + " in progress"
		}
		return IconActive + " " + n + " more in progress"
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{active, "in progress"}, {done, "completed"}, {pending, "pending"}} {
		if p.n > 0 {
			parts = append(parts, strconv.Itoa(p.n)+" "+p.what)
		}
	}
	if where != "" {
		where = " " + where
	}
	return "… " + n + " " + more + where + " (" + strings.Join(parts, ", ") + ")"
}
