package render

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Fatalf("%s differs from golden:\n%s\nwant:\n%s", name, got, want)
	}
}

var mixed = todo.Snapshot{Items: []todo.Item{
	{Content: "Analyze requirements", Status: todo.StatusCompleted, ActiveForm: "Analyzing requirements"},
	{Content: "编写实现代码", Status: todo.StatusInProgress, ActiveForm: "正在编写实现代码并补充单元测试"},
	{Content: "Ship it 🚀 and celebrate 🎉 with the whole team", Status: todo.StatusPending, ActiveForm: "Shipping"},
	{Content: "x", Status: todo.StatusPending, ActiveForm: "y"},
}}

func TestTaskBoxGolden(t *testing.T) {
	st := PlainStyles()
	for _, w := range []int{20, 40, 80} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			box := TaskBox(mixed, w, &st)
			golden(t, fmt.Sprintf("taskbox_%d", w), box)
			for i, line := range strings.Split(box, "\n") {
				if got := ansi.StringWidth(line); got != w {
					t.Errorf("line %d is %d cells wide, want %d: %q", i, got, w, line)
				}
			}
		})
	}
}

func TestTaskBoxNarrowAndEmpty(t *testing.T) {
	st := PlainStyles()
	if got := TaskBox(todo.Snapshot{}, 80, &st); got != "" {
		t.Fatalf("empty list drew %q", got)
	}
	for _, w := range []int{0, 5, 12, 13} {
		box := TaskBox(mixed, w, &st)
		want := max(w, minBoxWidth)
		for _, line := range strings.Split(box, "\n") {
			if ansi.StringWidth(line) != want {
				t.Fatalf("width %d: line %q is %d wide", w, line, ansi.StringWidth(line))
			}
		}
	}
}

func TestPlainGolden(t *testing.T) {
	golden(t, "plain", Plain(mixed))
	if got := Plain(todo.Snapshot{}); got != "No todos." {
		t.Fatalf("empty: %q", got)
	}
	one := todo.Snapshot{Items: []todo.Item{{Content: "a", Status: todo.StatusInProgress, ActiveForm: "b"}}}
	if got := Plain(one); got != "[>] a <- b\n\n(0/1 completed)" {
		t.Fatalf("one: %q", got)
	}
}

func TestUntrustedTextCannotEscape(t *testing.T) {
	evil := todo.Snapshot{Items: []todo.Item{
		{Content: "clear\x1b[2Jscreen", Status: todo.StatusPending, ActiveForm: "a"},
		{Content: "line\nbreak\rand\ttab", Status: todo.StatusCompleted, ActiveForm: "a"},
		{Content: "c1\u009b31m bidi\u202eevil bell\a del\x7f bad\xff", Status: todo.StatusInProgress, ActiveForm: "act\x1b]0;title\x07ive"},
	}}
	st := PlainStyles()
	for name, out := range map[string]string{"taskbox": TaskBox(evil, 60, &st), "plain": Plain(evil)} {
		for _, r := range out {
			if r == '\x1b' || r == '\r' || r == '\a' || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e {
				t.Fatalf("%s: control %U reached the output:\n%q", name, r, out)
			}
		}
	}
	if got := Sanitize("a\x1b[2Jb\nc"); got != "a␛[2Jb c" {
		t.Fatalf("Sanitize: %q", got)
	}
	if got := SanitizeOutput("\x1b[31mred\x1b[0m\r\nnext\rover\tx\x1b]0;t\x07"); got != "red\nnext\nover    x" {
		t.Fatalf("SanitizeOutput: %q", got)
	}
	if got := Sanitize("plain ascii"); got != "plain ascii" {
		t.Fatal(got)
	}
}

func TestNoColorMeansNoEscapes(t *testing.T) {
	st := PlainStyles()
	if out := TaskBox(mixed, 80, &st); strings.Contains(out, "\x1b") {
		t.Fatalf("plain styles drew escape codes: %q", out)
	}
	colored := DefaultStyles(true)
	out := TaskBox(mixed, 80, &colored)
	if !strings.Contains(out, "\x1b[") {
		t.Fatal("color styles drew no color")
	}
	if ansi.Strip(out) != TaskBox(mixed, 80, &st) {
		t.Fatal("colors changed the text")
	}
}

func BenchmarkTaskBox50(b *testing.B) {
	var items []todo.Item
	for i := 0; i < 50; i++ {
		status := []string{todo.StatusCompleted, todo.StatusPending}[i%2]
		if i == 25 {
			status = todo.StatusInProgress
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Task %d: implement the thing that needs doing, with 界 text", i), Status: status, ActiveForm: "Implementing"})
	}
	st := DefaultStyles(true)
	snap := todo.Snapshot{Items: items}
	b.ReportAllocs()
	for b.Loop() {
		TaskBox(snap, 80, &st)
	}
}

// list builds a list from a status string: c completed, a in progress, p pending.
func list(statuses string) []todo.Item {
	var items []todo.Item
	for i, c := range statuses {
		st := map[rune]string{'c': todo.StatusCompleted, 'a': todo.StatusInProgress, 'p': todo.StatusPending}[c]
		items = append(items, todo.Item{Content: fmt.Sprintf("item %d", i), ActiveForm: fmt.Sprintf("doing %d", i), Status: st})
	}
	return items
}

// shown renders Collapse's rows compactly: item indexes and summaries.
func shown(items []todo.Item, rows []Row) string {
	var parts []string
	for _, r := range rows {
		switch {
		case r.Summary != "":
			parts = append(parts, "["+r.Summary+"]")
		case r.More != "":
			parts = append(parts, fmt.Sprint(r.Item)+r.More)
		default:
			parts = append(parts, fmt.Sprint(r.Item))
		}
	}
	return strings.Join(parts, " ")
}

func TestCollapse(t *testing.T) {
	tests := []struct {
		name     string
		statuses string
		rows     int
		want     string
	}{
		{"fits", "cap", 3, "0 1 2"},
		{"fits with room", "cap", 10, "0 1 2"},
		{"no room", "cap", 0, ""},
		{"one row keeps the item in progress and counts the rest", "ccccapppp", 1, "4(+8 more)"},
		{"two rows", "ccccapppp", 2, "4 [… 8 more (4 completed, 4 pending)]"},
		{"three rows", "ccccapppp", 3, "[✓ 4 completed] 4 [… 4 more pending]"},
		{"around the item in progress", "ccccccccccccapppppppppppppppppppppppp", 8, "[✓ 11 completed] 11 12 13 14 15 16 [… 20 more pending]"},
		{"at the top", "apppppppppp", 4, "0 1 2 [… 8 more pending]"},
		{"at the bottom", "cccccccccca", 4, "[✓ 8 completed] 8 9 10"},
		{"no item in progress: first pending", "ccccccpppppp", 5, "[✓ 6 completed] 6 7 8 [… 3 more pending]"},
		{"all completed: the last", "cccccccc", 3, "[✓ 6 completed] 6 7"},
		{"mixed above and below", "pcpcpcapcpcpc", 5, "[… 6 more above (3 completed, 3 pending)] 6 7 8 [… 4 more below (2 completed, 2 pending)]"},
		{"two in progress", "ccccaapppp", 4, "[✓ 4 completed] 4 5 [… 4 more pending]"},
		{"two in progress, the rest in one row", "ccccaapppp", 3, "4 5 [… 8 more (4 completed, 4 pending)]"},
		{"two in progress, two rows", "ccccaapppp", 2, "4 5(+8 more)"},
		{"in progress around a completed one", "ccacappp", 4, "2 3 4 [… 5 more (2 completed, 3 pending)]"},
		{"in progress around a completed one, room", "ccacappp", 5, "[✓ 2 completed] 2 3 4 [… 3 more pending]"},
		{"in progress far apart", "accccccapp", 3, "0 7 [… 8 more (6 completed, 2 pending)]"},
		{"in progress far apart, room for below", "accccccapp", 4, "0 [✓ 6 completed] 7 [… 2 more pending]"},
		{"in progress far apart, one row", "accccccapp", 1, "0(+9 more, 1 in progress)"},
		{"more in progress than rows", "caaapp", 2, "1 2(+4 more, 1 in progress)"},
		{"five in progress far apart, room for all", "cccccccaccpppppapppppppapppppppapppppppa", 10, "[✓ 7 completed] 7 [… 7 more between (2 completed, 5 pending)] 15 [… 7 more pending] 23 [… 7 more pending] 31 [… 7 more pending] 39"},
		{"five in progress far apart, 8 rows", "cccccccaccpppppapppppppapppppppapppppppa", 8, "[✓ 7 completed] 7 [… 7 more between (2 completed, 5 pending)] 15 23 31 39 [… 21 more pending]"},
		{"five in progress far apart, 6 rows", "cccccccaccpppppapppppppapppppppapppppppa", 6, "7 15 23 31 39 [… 35 more (9 completed, 26 pending)]"},
		{"five in progress far apart, 4 rows", "cccccccaccpppppapppppppapppppppapppppppa", 4, "7 15 23 31(+36 more, 1 in progress)"},
		{"five in progress far apart, room for neighbours", "cccccccaccpppppapppppppapppppppapppppppa", 14, "[✓ 7 completed] 7 8 [… 6 more between (1 completed, 5 pending)] 15 16 [… 6 more pending] 23 24 [… 6 more pending] 31 32 [… 6 more pending] 39"},
		{"five in progress at the end", "ccccccccccpppppppppppppppppppppppppaaaaa", 6, "[… 35 more above (10 completed, 25 pending)] 35 36 37 38 39"},
		{"five in progress at the end, 5 rows", "ccccccccccpppppppppppppppppppppppppaaaaa", 5, "35 36 37 38 39(+35 more)"},
		{"no item in progress, one row", "ccccccpppppp", 1, "6(+11 more)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := list(tt.statuses)
			rows := Collapse(items, tt.rows)
			if len(rows) > max(tt.rows, 0) {
				t.Fatalf("%d rows for a room of %d", len(rows), tt.rows)
			}
			if got := shown(items, rows); got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestCollapseAccountsForEveryItem checks Collapse's two rules on every
// list of up to 9 items (each item completed, in progress or pending) in
// every room from 1 row to 11 (issue 29, item 3): every item is shown or
// counted, once; every item in progress is shown while the rows hold one
// row each and a row for the rest (all of them, at least); the items in
// progress hidden are counted as such; and no other item is shown while
// one in progress is hidden.
func TestCollapseAccountsForEveryItem(t *testing.T) {
	const most = 9
	for n := 1; n <= most; n++ {
		code := make([]int, n)
		for {
			var b strings.Builder
			for _, c := range code {
				b.WriteByte("cap"[c])
			}
			statuses := b.String()
			items := list(statuses)
			for rows := 1; rows <= most+2; rows++ {
				checkCollapse(t, statuses, items, rows, Collapse(items, rows))
			}
			i := 0
			for i < n && code[i] == 2 {
				code[i] = 0
				i++
			}
			if i == n {
				break
			}
			code[i]++
		}
	}
}

// checkCollapse fails t when got breaks one of Collapse's rules.
func checkCollapse(t *testing.T, statuses string, items []todo.Item, rows int, got []Row) {
	t.Helper()
	fail := func(why string) { t.Fatalf("%s in %d rows: %s: %s", statuses, rows, why, shown(items, got)) }
	if len(got) > rows || len(got) == 0 {
		fail(fmt.Sprintf("%d rows", len(got)))
	}
	k := strings.Count(statuses, "a")
	counted, last, activeShown, otherShown := 0, -1, 0, false
	hiddenActive := ""
	for _, r := range got {
		if r.Summary != "" {
			counted += r.Count
			if r.Count < 1 {
				fail("a summary of nothing")
			}
			if strings.Contains(r.Summary, "in progress") {
				hiddenActive += r.Summary
			}
			continue
		}
		if r.Item <= last {
			fail("items out of order")
		}
		last = r.Item
		counted++
		if items[r.Item].Status == todo.StatusInProgress {
			activeShown++
		} else {
			otherShown = true
		}
		if r.More != "" {
			counted += r.Count
			hiddenActive += r.More
		}
	}
	if counted != len(items) {
		fail(fmt.Sprintf("%d items accounted for, of %d", counted, len(items)))
	}
	want := k
	if len(items) > rows {
		want = min(k, rows) // the last row counts the rest
	}
	if activeShown != want {
		fail(fmt.Sprintf("%d of %d in progress shown, want %d", activeShown, k, want))
	}
	if activeShown < k && otherShown {
		fail("another item shown while one in progress is hidden")
	}
	if activeShown < k && !strings.Contains(hiddenActive, fmt.Sprintf("%d in progress", k-activeShown)) {
		fail("the items in progress hidden are not counted")
	}
}

func fifty() todo.Snapshot {
	items := list(strings.Repeat("c", 12) + "a" + strings.Repeat("p", 37))
	items[20].Content = "ok 👍🏽 and क्षि"
	return todo.Snapshot{Items: items}
}

func TestTaskBoxInGolden(t *testing.T) {
	st := PlainStyles()
	for _, h := range []int{0, 1, 2, 3, 5, 10, 18} {
		t.Run(fmt.Sprint(h), func(t *testing.T) {
			box := TaskBoxIn(fifty(), 40, h, &st)
			golden(t, fmt.Sprintf("taskbox_in_%d", h), box)
			lines := strings.Split(box, "\n")
			if h > 0 && len(lines) > h {
				t.Fatalf("%d lines in a height of %d", len(lines), h)
			}
			if !strings.Contains(lines[0], "Tasks 12/50") {
				t.Fatalf("title row %q", lines[0])
			}
			if h >= 3 && !strings.Contains(box, "● doing 12") {
				t.Fatal("the item in progress is not shown")
			}
		})
	}
}

func BenchmarkTaskBoxIn50Collapsed(b *testing.B) {
	st := DefaultStyles(true)
	snap := fifty()
	b.ReportAllocs()
	for b.Loop() {
		TaskBoxIn(snap, 100, 16, &st)
	}
}

func TestTaskBoxWidth(t *testing.T) {
	st := PlainStyles()
	snap := todo.Snapshot{Items: list("cap")}
	w := TaskBoxWidth(snap)
	if w != 15 { // the title " Tasks 1/3 " (11 cells) and its frame; the rows need 13
		t.Fatalf("width %d", w)
	}
	box := TaskBoxIn(snap, w, 0, &st)
	if strings.Contains(box, "…") {
		t.Fatalf("cut at its own width:\n%s", box)
	}
	if got := TaskBoxWidth(mixed); got != ansi.StringWidth("Ship it 🚀 and celebrate 🎉 with the whole team")+6 {
		t.Fatalf("mixed: %d", got)
	}
}

// TestPlainShowsActiveFormOnlyWhenItDiffers: TodoRead's plain form shows an
// item in progress as "[>] content <- activeForm" only when the activeForm
// says something else, and a task plan reads as the list does, its id once.
func TestPlainShowsActiveFormOnlyWhenItDiffers(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"todo, same", Plain(todo.Snapshot{Items: []todo.Item{{Content: "Docs", ActiveForm: "Docs", Status: "in_progress"}}}),
			"[>] Docs\n\n(0/1 completed)"},
		{"todo, differs", Plain(todo.Snapshot{Items: []todo.Item{{Content: "Docs", ActiveForm: "Writing docs", Status: "in_progress"}}}),
			"[>] Docs <- Writing docs\n\n(0/1 completed)"},
		{"tasks", PlainTasks(task.State{Tasks: []task.Task{
			{ID: "1", Subject: "Read", Status: task.StatusCompleted, Blocks: []string{"2"}},
			{ID: "2", Subject: "Write", ActiveForm: "Writing", Status: task.StatusInProgress, Owner: "bob", BlockedBy: []string{"1"}, Blocks: []string{"4"}},
			{ID: "3", Subject: "Docs", Status: task.StatusInProgress},
			{ID: "4", Subject: "Test\x1b[2J", Status: task.StatusPending, BlockedBy: []string{"2"}},
		}}), "[x] #1 Read\n[>] #2 Write <- Writing @bob\n[>] #3 Docs\n[ ] #4 Test␛[2J ⊘ blocked by #2\n\n(1/4 completed)"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, tc.got, tc.want)
		}
	}
}

// TestPanelKeepsWhatWasWritten: emoji sequences (ZWJ, skin tones, VS16)
// and Devanagari with spacing marks are drawn as written, every code
// point kept (they were stripped: 👨‍👩‍👧 showed as 👨👩👧). On a terminal
// (Anchored), a row whose width terminals disagree on is cut by the most
// cells it may take and its right border is drawn at the border's column
// (CHA), so the border stays put in tmux, in xterm.js and where the
// terminal measures graphemes; where the terminal measures graphemes (mode
// 2027) the count is exact and the row is drawn as any other.
func TestPanelKeepsWhatWasWritten(t *testing.T) {
	texts := []string{"Call 👨‍👩‍👧 now", "Like 👍🏽", "Love ❤️", "नमस्ते दुनिया", "क्षि", "plain ascii", "漢字も"}
	var items []todo.Item
	for _, x := range texts {
		items = append(items, todo.Item{Content: x, ActiveForm: x, Status: todo.StatusPending})
	}
	snap := todo.Snapshot{Items: items}
	for _, tc := range []struct {
		name                string
		anchored, graphemes bool
	}{{"pipe", false, false}, {"terminal", true, false}, {"terminal measuring graphemes", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			st := PlainStyles()
			st.Anchored, st.Graphemes = tc.anchored, tc.graphemes
			box := TaskBox(snap, 40, &st)
			rows := strings.Split(box, "\n")
			width := ansi.StringWidth(rows[0])
			for i, x := range texts {
				row := rows[i+1]
				if !strings.Contains(row, x) {
					t.Errorf("row %q does not hold %q as written", row, x)
				}
				anchored := strings.Contains(row, "\x1b[")
				if want := tc.anchored && !tc.graphemes && unsure(x); anchored != want {
					t.Errorf("row %q: border anchored %v, want %v", row, anchored, want)
				}
				if anchored && !strings.HasSuffix(row, anchor(width-1)+"│") {
					t.Errorf("row %q: border not at column %d", row, width-1)
				}
				if !anchored && ansi.StringWidth(row) != width {
					t.Errorf("row %q is %d cells, the box %d", row, ansi.StringWidth(row), width)
				}
			}
		})
	}
	// The box is wide enough for the widest drawing of a row: the family
	// side by side (6 cells), कि with its mark in a cell of its own.
	if got, want := cellsBound("👨‍👩‍👧"), 6; got != want {
		t.Errorf("cellsBound(family) = %d, want %d", got, want)
	}
	if got, want := cellsBound("कि"), 2; got != want {
		t.Errorf("cellsBound(कि) = %d, want %d", got, want)
	}
	if got := truncateBound("ab👨‍👩‍👧cd", 7, "…"); got != "ab…" {
		t.Errorf("truncateBound kept %q", got)
	}
}

// TestTaskBoxInExact: the exact boxes (plain styles) where the trial found
// them wrong: two items in progress in a short box (both shown, the
// rest counted), a window too small for a box (one line, not a
// lone top border), and emoji terminals draw wider or narrower than a
// grapheme measure (the right border stays in its column).
func TestTaskBoxInExact(t *testing.T) {
	two := todo.Snapshot{Items: []todo.Item{
		{Content: "Read", ActiveForm: "Reading", Status: todo.StatusCompleted},
		{Content: "Plan", ActiveForm: "Planning", Status: todo.StatusCompleted},
		{Content: "Build", ActiveForm: "Building", Status: todo.StatusInProgress},
		{Content: "Test", ActiveForm: "Testing", Status: todo.StatusInProgress},
		{Content: "Ship", ActiveForm: "Shipping", Status: todo.StatusPending},
	}}
	emoji := todo.Snapshot{Items: []todo.Item{
		{Content: "Call 👨‍👩‍👧", ActiveForm: "Calling 👨‍👩‍👧", Status: todo.StatusInProgress},
		{Content: "Like 👍🏽", Status: todo.StatusPending},
		{Content: "Love ❤️", Status: todo.StatusPending},
	}}
	tests := []struct {
		name          string
		snap          todo.Snapshot
		width, height int
		want          string
	}{
		{"two in progress, 4 rows", two, 24, 4,
			"╭─ Tasks 2/5 ──────────╮\n" +
				"│ ● Building           │\n" +
				"│ ● Testing (+3 more)  │\n" +
				"╰──────────────────────╯"},
		{"two in progress, 5 rows", two, 24, 5,
			"╭─ Tasks 2/5 ──────────╮\n" +
				"│ ● Building           │\n" +
				"│ ● Testing            │\n" +
				"│ … 3 more (2 complet… │\n" +
				"╰──────────────────────╯"},
		{"two in progress, 4 rows, the text cut before the count", two, 18, 4,
			"╭─ Tasks 2/5 ────╮\n" +
				"│ ● Building     │\n" +
				"│ ● T… (+3 more) │\n" +
				"╰────────────────╯"},
		{"two in progress, 4 rows, too narrow for the text and the count", two, 14, 4,
			"╭─ Tasks 2/5 ╮\n" +
				"│ ● Building │\n" +
				"│ ● (+3 mor… │\n" +
				"╰────────────╯"},
		{"two in progress, 6 rows", two, 24, 6,
			"╭─ Tasks 2/5 ──────────╮\n" +
				"│ ✓ 2 completed        │\n" +
				"│ ● Building           │\n" +
				"│ ● Testing            │\n" +
				"│ ○ Ship               │\n" +
				"╰──────────────────────╯"},
		{"20x2: one line", two, 19, 2, "Tasks 2/5 ▸ Buildi…"},
		{"one row, room", two, 40, 1, "Tasks 2/5 ▸ Building"},
		{"one row, cut in the count", two, 8, 1, "Tasks 2…"},
		{"nothing in progress", todo.Snapshot{Items: two.Items[4:]}, 40, 2, "Tasks 0/1 ▸ next: Ship"},
		{"emoji", emoji, 20, 0,
			"╭─ Tasks 0/3 ──────╮\n" +
				"│ ● Calling 👨‍👩‍👧     │\n" +
				"│ ○ Like 👍🏽        │\n" +
				"│ ○ Love ❤️        │\n" +
				"╰──────────────────╯"},
	}
	st := PlainStyles()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TaskBoxIn(tt.snap, tt.width, tt.height, &st)
			if tt.height == 1 || tt.height == 2 {
				// The width a caller sizes the line by holds it whole.
				if whole := TaskBoxIn(tt.snap, TaskBoxWidthIn(tt.snap, tt.height), tt.height, &st); strings.HasSuffix(whole, "…") {
					t.Fatalf("cut at TaskBoxWidthIn: %q", whole)
				}
			}
			if got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
			for _, l := range strings.Split(got, "\n") {
				if w := ansi.StringWidth(l); w > tt.width || (tt.height != 1 && tt.height != 2 && w != tt.width) {
					t.Fatalf("a row %d wide in %d: %q", w, tt.width, l)
				}
			}
		})
	}
}
