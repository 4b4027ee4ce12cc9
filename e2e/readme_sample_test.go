package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeCommands are the lines typed in the README's first sample.
var readmeCommands = []struct{ line, want string }{
	{`TodoWrite '{"todos":[{"content":"Read the spec","activeForm":"Reading the spec","status":"completed"},{"content":"Write the parser","activeForm":"Writing the parser","status":"in_progress"},{"content":"Add tests","activeForm":"Adding tests","status":"pending"}]}'`, "Todo list updated: 1 completed, 1 in_progress, 1 pending"},
	{"echo hello > notes.txt; ls", "notes.txt"},
	{"TodoRead", "(1/3 completed)"},
	{"seq 1 5000", "  5000"},
	{"TodoWrite '{}'", "- 'todos' array is required"},
}

// TestREADMESampleIsWhatTheShellDraws: the README's first sample (the
// panel as wide as its content, not the window) is what the shell draws
// in a 100-column tmux, typed line by line in a directory my-project with
// session demo. README_UPDATE=1 writes the capture into the README.
func TestREADMESampleIsWhatTheShellDraws(t *testing.T) {
	t.Parallel()
	// A directory whose path is as long as the README's /tmp/demo/my-project,
	// so that lines naming it wrap at the same place.
	var dir string
	for i := 0; ; i++ {
		top := fmt.Sprintf("/tmp/%04x", rand.IntN(1<<16))
		if err := os.Mkdir(top, 0o700); err == nil {
			t.Cleanup(func() { os.RemoveAll(top) })
			dir = filepath.Join(top, "my-project")
			break
		} else if i > 100 {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	tt := startTmuxWith(t, 100, 30, dir, "❯", nil, "--session", "demo")
	for _, c := range readmeCommands {
		tt.command(c.line, c.want)
	}
	// The capture, with the test's directory and the offloaded file's
	// random id as the README shows them.
	got := tt.all()
	got = strings.ReplaceAll(got, dir, "/tmp/demo/my-project")
	got = regexp.MustCompile(`toolu_[A-Za-z0-9]+\.md`).ReplaceAllString(got, "toolu_6ydXr9XkLUOhBBhH5jUzBTTO.md")
	var lines []string
	for _, l := range strings.Split(got, "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	sample := strings.TrimRight(strings.Join(lines, "\n"), "\n")

	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(readme), "```\nmy-project ❯ ")
	end := strings.Index(string(readme)[start+4:], "\n```\n")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no sample session")
	}
	block := string(readme)[start+4 : start+4+end]
	if block == sample {
		return
	}
	if os.Getenv("README_UPDATE") == "1" {
		out := string(readme)[:start+4] + sample + string(readme)[start+4+end:]
		if err := os.WriteFile(filepath.Join("..", "README.md"), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("README.md: sample written")
		return
	}
	t.Errorf("README.md's sample is not what the shell draws at 100 columns (README_UPDATE=1 writes it):\n--- README\n%s\n--- the shell\n%s", block, sample)
}
