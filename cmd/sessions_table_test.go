package cmd

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/internal/testwait"
)

// TestSessionTableFitsAndAligns: the sessions table keeps to the width
// given (columns give way, IN PROGRESS is cut), and its columns line up by
// display width when a field holds CJK or emoji.
func TestSessionTableFitsAndAligns(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	list := []session.Info{
		{ID: "session-AbCdEfGhIjKl", LastChange: now, Mode: "shell", Done: 1, Total: 3, InProgress: "写测试并修复错误 🚀 then ship", Files: 2, FilesBytes: 2500, Live: true, PID: 4242, AgentTurns: 3},
		{ID: "first-session-with-a-long-id", LastChange: now.Add(-3 * time.Hour), Mode: "エージェント", Done: 0, Total: 1, InProgress: "a long item in progress a long item in progress"},
		{ID: "s", LastChange: now.Add(-40 * 24 * time.Hour), Mode: "script", Done: 2, Total: 2},
	}
	gap := regexp.MustCompile(`\S  +`)
	for _, tc := range []struct {
		width int
		has   []string // headings it still shows
	}{
		{120, []string{"ID", "CHANGED", "MODE", "DONE", "IN PROGRESS", "FILES", "LIVE", "TURNS"}},
		{80, []string{"ID", "DONE", "IN PROGRESS", "FILES", "LIVE"}},
		{60, []string{"ID", "DONE", "LIVE"}},
		{40, []string{"ID", "DONE"}},
	} {
		t.Run(fmt.Sprint(tc.width), func(t *testing.T) {
			var b bytes.Buffer
			writeSessionTable(&b, list, now, true, tc.width)
			lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
			if len(lines) != len(list)+1 {
				t.Fatalf("%d lines:\n%s", len(lines), b.String())
			}
			for _, h := range tc.has {
				if !strings.Contains(lines[0], h) {
					t.Errorf("no %s column:\n%s", h, b.String())
				}
			}
			var starts []int // each column's display column, from the first line
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > tc.width {
					t.Errorf("a line of %d columns (of %d): %q", w, tc.width, l)
				}
				var at []int
				for _, m := range gap.FindAllStringIndex(l, -1) {
					at = append(at, ansi.StringWidth(l[:m[1]]))
				}
				if i == 0 {
					starts = at
				} else if fmt.Sprint(at) != fmt.Sprint(starts) {
					t.Errorf("row %d: columns start at %v, headings at %v:\n%s", i, at, starts, b.String())
				}
			}
		})
	}
}

// TestSessionTableIsLinear: the table of 20,000 sessions (what a listing
// reads at most) is written in well under a second; each row measured
// every column again before, and 3,000 rows took 5 s (20,000: minutes).
func TestSessionTableIsLinear(t *testing.T) {
	t.Parallel()
	rows := 20_000
	if testwait.Race {
		rows = 5_000 // quadratic, 3,000 rows took 5 s; the pass without -race runs 20,000
	}
	list := make([]session.Info, rows)
	for i := range list {
		list[i] = session.Info{ID: fmt.Sprintf("s%06d", i), Total: 3, Done: 1, InProgress: "Writing row " + strconv.Itoa(i)}
	}
	var b strings.Builder
	start := time.Now()
	writeSessionTable(&b, list, time.Now(), true, 120)
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("%d rows took %v", len(list), d)
	}
	if n := strings.Count(b.String(), "\n"); n != len(list)+1 {
		t.Fatalf("%d lines, want %d", n, len(list)+1)
	}
}
