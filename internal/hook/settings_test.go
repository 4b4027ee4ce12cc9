package hook

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

var want = Want{Agent: Claude, Hook: "/usr/bin/todo-shell hook", StatusLine: "/usr/bin/todo-shell statusline"}

// renamed is todo-shell built under another name (go build -o ts).
var renamed = Want{Agent: Claude, Hook: "/tmp/ts hook --plan x", StatusLine: "/tmp/ts statusline"}

// count is how many hook entries of event in doc run command.
func count(t *testing.T, doc []byte, event, command string) int {
	t.Helper()
	var d struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("%v:\n%s", err, doc)
	}
	n := 0
	for _, g := range d.Hooks[event] {
		for _, h := range g.Hooks {
			if h.Command == command && h.Type == "command" {
				n++
			}
		}
	}
	return n
}

func TestMerge(t *testing.T) {
	t.Parallel()
	existing := `{
  "model": "opus",
  "permissions": {"allow": ["Bash(go test:*)"], "deny": []},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  },
  "env": {"A": "1"}
}`
	out, notes, err := Merge([]byte(existing), want)
	if err != nil || len(notes) != 0 {
		t.Fatal(err, notes)
	}
	for _, ev := range Events(Claude) {
		if n := count(t, out, ev, want.Hook); n != 1 {
			t.Errorf("%s: %d todo-shell hooks", ev, n)
		}
	}
	if count(t, out, "Stop", "notify-send done") != 1 || count(t, out, "PreToolUse", "audit.sh") != 1 {
		t.Errorf("the person's own hooks are gone:\n%s", out)
	}
	// Every other key kept, in its order, statusLine added last.
	var keys []string
	for _, k := range []string{`"model"`, `"permissions"`, `"hooks"`, `"env"`, `"statusLine"`} {
		keys = append(keys, k)
		if !strings.Contains(string(out), k) {
			t.Fatalf("no %s:\n%s", k, out)
		}
	}
	for i := 1; i < len(keys); i++ {
		if strings.Index(string(out), keys[i-1]) > strings.Index(string(out), keys[i]) {
			t.Errorf("%s comes after %s:\n%s", keys[i-1], keys[i], out)
		}
	}
	if !strings.Contains(string(out), `"Bash(go test:*)"`) || !strings.Contains(string(out), `"matcher": "Bash"`) {
		t.Errorf("values changed:\n%s", out)
	}
	// A second run changes nothing, whatever the program is called.
	for _, w := range []Want{want, renamed} {
		out, _, _ := Merge([]byte(existing), w)
		again, notes, err := Merge(out, w)
		if err != nil || string(again) != string(out) || len(notes) != 0 {
			t.Fatalf("second merge changed the document (%q):\n%s\n---\n%s", notes, out, again)
		}
	}
	// todo-shell moved: the command is brought up to date, not doubled.
	moved := want
	moved.Hook = "'/opt/my tools/todo-shell' hook --plan build"
	moved.StatusLine = "'/opt/my tools/todo-shell' statusline"
	out2, _, err := Merge(out, moved)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range Events(Claude) {
		if count(t, out2, ev, moved.Hook) != 1 || count(t, out2, ev, want.Hook) != 0 {
			t.Errorf("%s after a move:\n%s", ev, out2)
		}
	}
	if !strings.Contains(string(out2), `"command": "'/opt/my tools/todo-shell' statusline"`) {
		t.Errorf("status line not moved:\n%s", out2)
	}
}

func TestMergeKeepsAnotherStatusLine(t *testing.T) {
	t.Parallel()
	out, notes, err := Merge([]byte(`{"statusLine":{"type":"command","command":"ccstatusline"}}`), want)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"command": "ccstatusline"`) || len(notes) != 1 || !strings.Contains(notes[0], "ccstatusline") {
		t.Fatalf("%s %q", out, notes)
	}
}

func TestMergeRefusesWhatIsNotSettings(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{`[]`, `{"hooks": []}`, `{"hooks": {"Stop": {}}}`, `{`, `{"a":1} {"b":2}`, `"x"`} {
		if _, _, err := Merge([]byte(bad), want); err == nil {
			t.Errorf("%s: merged", bad)
		}
	}
}

func TestMergeOtherAgents(t *testing.T) {
	t.Parallel()
	for _, a := range []Agent{Codex, Gemini} {
		w := Want{Agent: a, Hook: "todo-shell hook"}
		out, _, err := Merge(nil, w)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range Events(a) {
			if count(t, out, ev, w.Hook) != 1 {
				t.Errorf("%s %s:\n%s", a, ev, out)
			}
		}
		if strings.Contains(string(out), "statusLine") {
			t.Errorf("%s: a statusLine", a)
		}
	}
}

// TestInstall: written atomically beside the old file, its mode kept;
// nothing written when nothing changes; a symlink, a directory or a file
// that is not a JSON object is refused and left as it is.
func TestInstall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.local.json")
	changed, _, err := Install(path, want)
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", info.Mode())
	}
	os.Chmod(path, 0o600)
	old, _ := os.ReadFile(path)
	changed, _, err = Install(path, want)
	if err != nil || changed {
		t.Fatal("second install:", changed, err)
	}
	moved := want
	moved.Hook = "/opt/todo-shell hook"
	if changed, _, err = Install(path, moved); err != nil || !changed {
		t.Fatal(changed, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode not kept: %v", info.Mode())
	}
	if b, _ := os.ReadFile(path); string(b) == string(old) || count(t, b, "Stop", moved.Hook) != 1 {
		t.Errorf("not rewritten:\n%s", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}

	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{not json"), 0o600)
	if _, _, err := Install(bad, want); err == nil || !strings.Contains(err.Error(), "nothing written") {
		t.Errorf("bad JSON: %v", err)
	}
	if b, _ := os.ReadFile(bad); string(b) != "{not json" {
		t.Errorf("bad file changed: %q", b)
	}
	target := filepath.Join(dir, "target.json")
	os.WriteFile(target, []byte("{}"), 0o600)
	link := filepath.Join(dir, "link.json")
	os.Symlink(target, link)
	if _, _, err := Install(link, want); !errors.Is(err, readgate.ErrNotRegular) {
		t.Errorf("symlink: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "{}" {
		t.Errorf("the symlink's target changed: %q", b)
	}
	if _, _, err := Install(dir, want); !errors.Is(err, readgate.ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
}

func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/x/todo-shell hook"}]}]},"a":[1,{"b":null}]}`))
	f.Add([]byte(`{"statusLine":{"command":"todo-shell statusline"},"hooks":{}}`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, w := range []Want{want, renamed} {
			out, _, err := Merge(doc, w)
			if err != nil {
				return
			}
			if !json.Valid(out) {
				t.Fatalf("invalid JSON out of %q:\n%s", doc, out)
			}
			again, _, err := Merge(out, w)
			if err != nil || string(again) != string(out) {
				t.Fatalf("not idempotent on %q: %v\n%s\n---\n%s", doc, err, out, again)
			}
		}
	})
}
