package repl

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestFitPrompt: the prompt keeps to its room, shortening the branch,
// then the directory, then dropping the branch, and always ends with its
// marker.
func TestFitPrompt(t *testing.T) {
	const (
		dir    = "my-company-backend-service"
		branch = "feature/add-login-flow"
	)
	tests := []struct {
		name              string
		dir, branch, tail string
		ctx               string
		room              int
		want              string
	}{
		{"no limit", dir, branch, " ❯ ", "", 0, dir + " (" + branch + ") ❯ "},
		{"fits", "work", "main", " ❯ ", "", 39, "work (main) ❯ "},
		{"branch shortened", dir, branch, " ❯ ", "", 49, "my-company-backend-service (feature/add-logi…) ❯ "},
		{"directory shortened too", dir, branch, " ❯ ", "", 29, "my-company-bac… (feature…) ❯ "},
		{"branch dropped", dir, branch, " ❯ ", "", 19, "my-company-back… ❯ "},
		{"status kept", dir, branch, " ✗1 ❯ ", "", 19, "my-company-b… ✗1 ❯ "},
		{"agent ctx kept", dir, "", " ctx 41% ✦ ", " ctx 41%", 29, "my-company-backen… ctx 41% ✦ "},
		{"agent ctx dropped", dir, branch, " ctx 41% ✦ ", " ctx 41%", 9, "my-co… ✦ "},
		{"marker alone", dir, branch, " ✗127 ❯ ", "", 2, "❯ "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fitPrompt(tt.dir, tt.branch, tt.tail, tt.ctx, tt.room)
			if got != tt.want {
				t.Fatalf("fitPrompt = %q, want %q", got, tt.want)
			}
			if tt.room > 0 && ansi.StringWidth(got) > tt.room {
				t.Fatalf("%q is %d cells, room %d", got, ansi.StringWidth(got), tt.room)
			}
		})
	}
}

// TestLongPromptLeavesRoomToType: in a long directory on a long branch the
// prompt takes at most half the row and what is typed shows on the
// prompt's row (trial finding: at 80 columns the prompt filled the row and
// typed text was not visible at all; at 60 a 7-column strip was left).
func TestLongPromptLeavesRoomToType(t *testing.T) {
	for _, tt := range []struct{ dir, branch string }{
		{"/src/a-rather-long-directory-name-for-the-prompt", "feature/very-long-branch-name-here"},
		{"/src/my-company-backend-service", "feature/add-login-flow"},
	} {
		for _, w := range []int{100, 80, 60, 40} {
			t.Run(fmt.Sprintf("%s/%d", tt.branch, w), func(t *testing.T) {
				cfg, _ := testConfig(t)
				cfg.Dir = func() string { return tt.dir }
				m := New(cfg)
				m.prompt.branch = tt.branch
				next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
				next, _ = next.(*Model).Update(tea.PasteMsg{Content: "echo hello world"})
				m = next.(*Model)
				p := m.promptParts()
				if pw := ansi.StringWidth(p); pw > (w-1)/2 || !strings.HasSuffix(p, "❯ ") {
					t.Fatalf("prompt %q (%d cells) at width %d", p, pw, w)
				}
				content, _ := m.draw()
				rows := strings.Split(ansi.Strip(content), "\n")
				if len(rows) != 1 || !strings.HasPrefix(rows[0], p+"echo hello world") {
					t.Fatalf("the input at width %d is %q, want the prompt and the typed text on one row", w, rows)
				}
			})
		}
	}
}
