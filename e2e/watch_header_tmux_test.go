package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/follow"
)

// TestTmuxWatchHeaderKeepsVersionAndQuit: watch's header on a screen
// narrower than it keeps "· vN · q quits" whole and the start and end of
// a long session file's name: a Codex rollout at 80 columns, a Claude
// Code session at 60.
func TestTmuxWatchHeaderKeepsVersionAndQuit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, fixture, flag string
		cols, rows          int
		place               func(home, project string) string
		want                []string // on the header row, in order
	}{
		{"codex", "codex-0.169.0_rollout.jsonl", "--codex", 80, 24,
			func(home, project string) string {
				d := filepath.Join(home, ".codex", "sessions", "2026", "11", "25")
				os.MkdirAll(d, 0o700)
				return filepath.Join(d, "rollout-2026-11-25T09-40-25-01a21213-5c1e-4d0b-9f6a-7be3c2d41f08.jsonl")
			},
			[]string{"watching rollout-2026-11-25T09", "…", "7be3c2d41f08.jsonl · v3 · q quits"}},
		{"claude", "claude-code-2.1.330_todowrite.jsonl", "--claude", 60, 20,
			func(home, project string) string {
				d := follow.ClaudeProjectDir(filepath.Join(home, ".claude", "projects"), project)
				os.MkdirAll(d, 0o700)
				return filepath.Join(d, "161c2a7e-3f4b-4c8d-9e0f-1a2b3c4d5e6f.jsonl")
			},
			[]string{"watching 161c2a7e-3f", "…", "e6f.jsonl · v3 · q quits"}},
	} {
		t.Run(fmt.Sprintf("%s %dx%d", tc.name, tc.cols, tc.rows), func(t *testing.T) {
			home := t.TempDir()
			project := filepath.Join(home, "src", "app")
			os.MkdirAll(project, 0o700)
			data, err := os.ReadFile(filepath.Join("..", "internal", "plan", "testdata", tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(string(data), `"cwd":"/tmp/rec/p-codex"`, `"cwd":"`+project+`"`)
			if err := os.WriteFile(tc.place(home, project), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			tt := tmuxSh(t, tc.cols, tc.rows, project, "HOME="+home+" CODEX_HOME= CLAUDE_CONFIG_DIR= exec "+binary+" watch "+tc.flag)
			tt.waitUntil("the header with its version and q quits", func() bool {
				head, _, _ := strings.Cut(tt.screen(), "\n")
				rest := head
				for _, w := range tc.want {
					i := strings.Index(rest, w)
					if i < 0 {
						return false
					}
					rest = rest[i+len(w):]
				}
				return true
			})
			tt.run("send-keys", "-t", "t", "q")
		})
	}
}
