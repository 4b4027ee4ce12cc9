package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// These tests hold the panel to its promise (issue 29, item 3): its rows
// account for every item — each shown, or counted by a summary row — and
// every item in progress is shown while there is room for one row each.

// fortyTodos is a TodoWrite of 40 items, "Item N" (N from 1), the first
// ten completed, the rest pending, but those of active in progress.
func fortyTodos(active ...int) string {
	type item struct {
		Content    string `json:"content"`
		ActiveForm string `json:"activeForm"`
		Status     string `json:"status"`
	}
	var items []item
	for n := 1; n <= 40; n++ {
		st := "pending"
		if n <= 10 {
			st = "completed"
		}
		for _, a := range active {
			if a == n {
				st = "in_progress"
			}
		}
		items = append(items, item{fmt.Sprintf("Item %d", n), fmt.Sprintf("Working on item %d", n), st})
	}
	b, _ := json.Marshal(map[string]any{"todos": items})
	return "TodoWrite '" + string(b) + "'"
}

var (
	doneRow    = regexp.MustCompile(`^✓ (\d+) completed$`)
	moreRow    = regexp.MustCompile(`^… (\d+) (more|items)\b`)
	allRow     = regexp.MustCompile(`^[●○] (\d+) (in progress|pending)$`)
	moreSuffix = regexp.MustCompile(` \(\+(\d+) more(, \d+ in progress)?\)$`)
)

// panelBox is the task box on a screen: its rows (between the borders,
// trimmed), and the rows of the screen under its bottom border; ok is
// false while there is no whole box.
func panelBox(scr string) (rows, under []string, ok bool) {
	lines := strings.Split(strings.TrimSuffix(scr, "\n"), "\n") // a blank row is an empty line
	top := -1
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "╭─ Tasks"):
			top, rows = i, nil
		case top >= 0 && strings.HasPrefix(l, "╰"):
			return rows, lines[i+1:], true
		case top >= 0 && strings.HasPrefix(l, "│"):
			l = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(l), "│"))
			rows = append(rows, strings.TrimSpace(strings.TrimPrefix(l, "│")))
		}
	}
	return nil, nil, false
}

// accounted is how many items the box's rows stand for: one for an item's
// row (and the count at its end, "(+3 more)"), the count of a summary row.
func accounted(rows []string) int {
	n := 0
	for _, r := range rows {
		for _, re := range []*regexp.Regexp{doneRow, moreRow, allRow} {
			if m := re.FindStringSubmatch(r); m != nil {
				c, _ := strconv.Atoi(m[1])
				n += c - 1
				break
			}
		}
		n++
		if m := moreSuffix.FindStringSubmatch(r); m != nil {
			c, _ := strconv.Atoi(m[1])
			n += c
		}
	}
	return n
}

// TestTmuxPanelAccountsForEveryItem: 40 todos, 5 of them in progress far
// apart (--max-in-progress 0), at 100×30, 80×24 and 60×20: the panel
// shows all 5 and its rows count the other 35. Before, it ended after the
// fourth (item 32) at 100×30, and items 36–40 were neither shown nor
// counted; at 80×24 it ended after item 30, at 60×20 after item 20.
func TestTmuxPanelAccountsForEveryItem(t *testing.T) {
	t.Parallel()
	active := []int{8, 16, 24, 32, 40}
	for _, size := range sizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			tt := startTmuxIn(t, size[0], size[1], t.TempDir(), "--max-in-progress", "0")
			tt.command(fortyTodos(active...), "Todo list updated: 9 completed, 5 in_progress, 26 pending")
			var scr string
			var rows []string
			testwait.For(t, 10*time.Second, "the panel", func() bool {
				scr = tt.screen()
				var ok bool
				rows, _, ok = panelBox(scr)
				return ok && idle(scr)
			}, func() string { return scr })
			for _, a := range active {
				if !hasLine(strings.Join(rows, "\n"), fmt.Sprintf("● Working on item %d", a)) {
					t.Errorf("item %d (in progress) is not shown:\n%s", a, scr)
				}
			}
			if n := accounted(rows); n != 40 {
				t.Errorf("the panel's rows account for %d items of 40:\n%s", n, scr)
			}
		})
	}
}

// TestTmuxSharedPlanPanelShowsEveryTaskInProgress: a shared plan with 6
// tasks in progress by 6 owners (several agents at once) in an 80×24
// shell shows all 6, and counts the rest. Before, it showed 3.
func TestTmuxSharedPlanPanelShowsEveryTaskInProgress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	var script strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&script, "TaskCreate '{\"subject\":\"Task %d\",\"description\":\"d\",\"activeForm\":\"Doing task %d\"}'\n", i, i)
	}
	for _, i := range []int{1, 3, 5, 7, 9, 11} {
		fmt.Fprintf(&script, "TaskUpdate '{\"taskId\":\"%d\",\"status\":\"in_progress\",\"owner\":\"agent%d\"}'\n", i, i)
	}
	script.WriteString("TaskUpdate '{\"taskId\":\"2\",\"status\":\"completed\"}'\n")
	file := filepath.Join(dir, "plan.txt")
	if err := os.WriteFile(file, []byte(script.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "--plan", "six", "--offload-dir", filepath.Join(dir, ".offload"), file)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tt := startTmuxEnv(t, 80, 24, dir, "NO_COLOR=1 XDG_STATE_HOME="+state, "--plan", "six")
	var scr string
	var rows []string
	testwait.For(t, 10*time.Second, "the panel", func() bool {
		scr = tt.screen()
		var ok bool
		rows, _, ok = panelBox(scr)
		return ok
	}, func() string { return scr })
	for _, i := range []int{1, 3, 5, 7, 9, 11} {
		if !hasLine(strings.Join(rows, "\n"), fmt.Sprintf("● #%d Doing task %d @agent%d", i, i, i)) {
			t.Errorf("task %d (in progress) is not shown:\n%s", i, scr)
		}
	}
	if n := accounted(rows); n != 12 {
		t.Errorf("the panel's rows account for %d tasks of 12:\n%s", n, scr)
	}
}

// TestTmuxWatchInAShortWindowAccountsForEveryItem: `watch` of 16 todos
// (10 completed, 1 in progress) in windows 7 to 10 rows high keeps the
// "✓ N completed" row, counts every item, and leaves no blank row under
// the box. Before, at 7 rows the completed row went and two rows stayed
// blank under the box at every height.
func TestTmuxWatchInAShortWindowAccountsForEveryItem(t *testing.T) {
	t.Parallel()
	type item struct {
		Content    string `json:"content"`
		ActiveForm string `json:"activeForm"`
		Status     string `json:"status"`
	}
	var items []item
	for i := 1; i <= 16; i++ {
		st := "pending"
		switch {
		case i <= 10:
			st = "completed"
		case i == 11:
			st = "in_progress"
		}
		items = append(items, item{fmt.Sprintf("Step %d", i), fmt.Sprintf("Doing step %d", i), st})
	}
	b, _ := json.Marshal(map[string]any{"todos": items})
	for _, rows := range []int{7, 8, 9, 10} {
		t.Run(fmt.Sprint(rows), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cmd := exec.Command(binary, "--offload-dir", filepath.Join(dir, ".offload"), "--session", "w16", "-c", "TodoWrite '"+string(b)+"'")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			tt := startTmuxIn(t, 60, rows, dir, "watch", "w16")
			var scr string
			var box, under []string
			testwait.For(t, 10*time.Second, "the panel", func() bool {
				scr = tt.screen()
				var ok bool
				box, under, ok = panelBox(scr)
				return ok
			}, func() string { return scr })
			if !hasLine(strings.Join(box, "\n"), "● Doing step 11") {
				t.Errorf("the item in progress is not shown:\n%s", scr)
			}
			if n := accounted(box); n != 16 {
				t.Errorf("the rows account for %d items of 16:\n%s", n, scr)
			}
			if len(under) > 0 {
				t.Errorf("%d rows under the box:\n%s", len(under), scr)
			}
		})
	}
}
