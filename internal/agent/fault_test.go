package agent

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/offload/offloadtest"
	"github.com/todo-shell/todo-shell/tools/todo"
	"github.com/todo-shell/todo-shell/tools/toolset"
)

// TestFaultAgentOffload runs the loop against the fake API with the offload
// file failing at each step: the model gets the pointer to the whole output
// in the fallback file, or, when that fails too, the whole output.
func TestFaultAgentOffload(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	want, err := exec.Command("seq", "1", "100000").Output()
	if err != nil {
		t.Fatal(err)
	}
	faults := []offloadtest.Fault{
		{Step: offloadtest.Dir}, {Step: offloadtest.Create}, {Step: offloadtest.Write, After: 0},
		{Step: offloadtest.Write, After: 65536}, {Step: offloadtest.Write, After: 65537}, {Step: offloadtest.Write, After: 500_000},
		{Step: offloadtest.Sync}, {Step: offloadtest.Close}, {Step: offloadtest.Rename},
	}
	for _, f := range faults {
		for _, both := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s-%d/both=%v", f.Step, f.After, both), func(t *testing.T) {
				d := t.TempDir()
				primary, fallback := filepath.Join(d, "offload"), filepath.Join(d, "fallback")
				f := f
				if !both {
					f.Under = primary
				}
				off := offload.Config{Dir: primary, FallbackDir: fallback, Session: "s", Threshold: 1000, FS: offloadtest.New(f)}
				api := newFakeAPI(t, toolUse(bashCall("toolu_big", "seq 1 100000")), say("done"))
				set, err := toolset.New(toolset.Options{Limits: todo.DefaultLimits(), Offload: off, BashTimeout: time.Minute, Dir: d})
				if err != nil {
					t.Fatal(err)
				}
				a, err := New(Config{
					Client:    anthropic.NewClient(option.WithAPIKey("test-key"), option.WithBaseURL(api.srv.URL)),
					Model:     string(DefaultModel),
					MaxTokens: 1024, MaxTurns: 5, Tools: set.Executor,
				})
				if err != nil {
					t.Fatal(err)
				}
				var done []ToolDone
				if _, err := a.Run(context.Background(), "go", func(ev Event) {
					if d, ok := ev.(ToolDone); ok {
						done = append(done, d)
					}
				}); err != nil {
					t.Fatal(err)
				}
				sent := resultText(userBlocks(api.requests()[1])[0])
				if both {
					if sent != string(want) {
						t.Fatalf("the model got %d bytes, not seq's %d", len(fmt.Sprint(sent)), len(want))
					}
					if len(done) != 1 || done[0].Result.OffloadErr == nil {
						t.Fatal("no warning for the front end")
					}
					return
				}
				file := filepath.Join(fallback, "s", "toolu_big.md")
				if sent != offload.Pointer(file) {
					t.Fatalf("the model got %.200q", sent)
				}
				if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
					t.Fatalf("fallback file of %d bytes, want %d", len(got), len(want))
				}
				if len(done) != 1 || done[0].Result.OffloadErr == nil {
					t.Fatal("no warning for the front end")
				}
			})
		}
	}
}

// TestRedactsCredentials: a command that prints the key (short output and
// long, offloaded output) has it masked in what the model gets, the
// events the screen draws, the transcript and the offload file.
func TestRedactsCredentials(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	const key = "sk-ant-unit-SECRET-42"
	file := filepath.Join(t.TempDir(), "k")
	if err := os.WriteFile(file, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newRedactingEnv(t, tools.NewRedactor(key),
		toolUse(bashCall("toolu_short", "cat "+file)),
		// 200 lines of the key, each its own write, printed by bash itself
		// (200 cat processes cost a third of a second of CPU).
		toolUse(bashCall("toolu_long", "k=$(<"+file+"); for i in $(seq 200); do printf '%s\n' \"$k\"; done")),
		say("done"))
	var shown strings.Builder
	if _, err := e.agent.Run(context.Background(), "go", func(ev Event) {
		if d, ok := ev.(ToolDone); ok {
			shown.WriteString(d.Result.Content)
			if d.Result.Offloaded != nil {
				shown.WriteString(d.Result.Offloaded.Preview)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	reqs := e.api.raw
	if got := resultText(userBlocks(e.api.requests()[1])[0]); got != tools.RedactMask+"\n" {
		t.Fatalf("the model got %q", got)
	}
	long, err := os.ReadFile(filepath.Join(e.offDir, "agent-test", "toolu_long.md"))
	if err != nil || strings.Count(string(long), tools.RedactMask) != 200 {
		t.Fatalf("offload file: %v %.200s", err, long)
	}
	for what, text := range map[string]string{"requests": string(bytes.Join(reqs, nil)), "screen": shown.String(), "transcript": e.transcript.String(), "offload": string(long)} {
		if strings.Contains(text, key) {
			t.Errorf("the key reached the %s", what)
		}
	}
}
