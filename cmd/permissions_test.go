package cmd

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestAgentPrintPermissions: in agent -p no one can be asked, so a command
// no rule allows is refused with an is_error result naming the rule that
// would allow it; a rule (flag or settings file) or
// --dangerously-skip-permissions lets it run; deny wins. The model asks for
// `rm -rf` of a precious directory each time.
func TestAgentPrintPermissions(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		deny    bool   // a settings file denies rm
		allow   bool   // a settings file allows rm
		deleted bool   // the directory is gone afterwards
		result  string // in the tool_result sent back
		stderr  string
	}{
		{name: "refused by default", result: "The rule Bash(rm -rf PRECIOUS) would allow it", stderr: "todo-shell: refused: Permission needed: this Bash call"},
		{name: "allowed by a flag", args: []string{"--allowedTools", "Bash(rm -rf PRECIOUS)"}, deleted: true},
		{name: "a prefix rule does not allow rm", args: []string{"--allowedTools", "Bash(rm:*)"}, result: "The rule Bash(rm -rf PRECIOUS) would allow it"},
		{name: "allowed by settings", allow: true, deleted: true},
		{name: "other rule", args: []string{"--allowedTools", "Bash(git status),Bash(ls:*)"}, result: "The rule Bash(rm -rf PRECIOUS) would allow it"},
		{name: "skip permissions", args: []string{"--dangerously-skip-permissions"}, deleted: true, stderr: "--dangerously-skip-permissions: every tool call runs without asking"},
		{name: "deny wins", args: []string{"--dangerously-skip-permissions", "--allowedTools", "Bash"}, deny: true, result: "the rule Bash(rm:*) in the deny list forbids"},
		{name: "deny flag", args: []string{"--allowedTools", "Bash", "--disallowedTools", "Bash(rm:*)"}, result: "the rule Bash(rm:*) in the deny list forbids"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			precious := filepath.Join(t.TempDir(), "precious")
			if err := os.MkdirAll(filepath.Join(precious, "work"), 0o755); err != nil {
				t.Fatal(err)
			}
			cfg := t.TempDir()
			settings := map[string]any{}
			if tt.allow {
				settings["allow"] = []string{"Bash(rm -rf " + precious + ")"}
			}
			for i, a := range tt.args {
				tt.args[i] = strings.ReplaceAll(a, "PRECIOUS", precious)
			}
			tt.result = strings.ReplaceAll(tt.result, "PRECIOUS", precious)
			if tt.deny {
				settings["deny"] = []string{"Bash(rm:*)"}
			}
			b, _ := json.Marshal(map[string]any{"permissions": settings})
			os.MkdirAll(filepath.Join(cfg, "todo-shell"), 0o755)
			if err := os.WriteFile(filepath.Join(cfg, "todo-shell", "settings.json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var second []byte
			n := 0
			steps := []http.HandlerFunc{sse("", "Bash", `{"command":"rm -rf `+precious+`"}`), sse("done", "", "")}
			url := fakeMessagesFunc(t, func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				n++
				if n == 2 {
					second = b
				}
				i := n
				mu.Unlock()
				steps[i-1](w, r)
			})
			env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": url, "XDG_CONFIG_HOME": cfg}
			r := run(t, "", env, append([]string{"agent", "-p", "clean up", "--session", "perm", "--offload-dir", t.TempDir()}, tt.args...)...)
			if r.code != 0 || r.stdout != "done\n" || !strings.Contains(r.stderr, tt.stderr) {
				t.Fatalf("%+v", r)
			}
			_, err := os.Stat(precious)
			if gone := os.IsNotExist(err); gone != tt.deleted {
				t.Fatalf("deleted %v, want %v", gone, tt.deleted)
			}
			var body struct {
				Messages []struct {
					Content []struct {
						Type    string `json:"type"`
						IsError bool   `json:"is_error"`
						Content []struct {
							Text string `json:"text"`
						} `json:"content"`
					} `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(second, &body); err != nil {
				t.Fatal(err)
			}
			res := body.Messages[len(body.Messages)-1].Content[0]
			text := ""
			if len(res.Content) > 0 {
				text = res.Content[0].Text
			}
			if tt.result != "" && (!res.IsError || !strings.Contains(text, tt.result)) {
				t.Fatalf("result %+v", res)
			}
			if tt.result == "" && res.IsError {
				t.Fatalf("refused: %+v", res)
			}
		})
	}
}

// fakeMessagesFunc serves the Messages API with h.
func fakeMessagesFunc(t *testing.T, h http.HandlerFunc) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
