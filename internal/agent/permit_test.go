package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/permission"
)

// TestPermissionAnswers: a call no rule allows goes to Ask; "always" adds
// the rule (the same kind of call is not asked again); a refusal goes back
// as an is_error result saying the person refused, with their reason; with
// no Ask (agent -p) the call is refused naming the rule; nothing is deleted
// unless allowed.
func TestPermissionAnswers(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "x")
	mk := func() {
		if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	exists := func() bool { _, err := os.Stat(victim); return err == nil }
	rm := "rm -rf " + victim

	mk()
	e := newEnv(t, toolUse(bashCall("toolu_1", rm)), toolUse(bashCall("toolu_2", "rm -f /nonexistent")), say("done"))
	e.agent.cfg.Permissions = permission.New(permission.Config{Dir: dir})
	var asked []Question
	e.agent.cfg.Ask = func(_ context.Context, q Question) Answer {
		asked = append(asked, q)
		return Answer{Kind: AllowAlways}
	}
	if _, err := e.agent.Run(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0].Rule.String() != "Bash(rm:*)" || exists() {
		t.Fatalf("asked %+v, exists %v", asked, exists())
	}

	for _, tt := range []struct {
		name string
		ask  func(context.Context, Question) Answer
		want string
	}{
		{"refused with a reason", func(context.Context, Question) Answer { return Answer{Kind: Refuse, Reason: "not my files"} }, "Refused by the person: they did not allow this call. They said: not my files"},
		{"no one to ask", nil, "The rule Bash(rm:*) would allow it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mk()
			e := newEnv(t, toolUse(bashCall("toolu_1", rm)), say("ok"))
			e.agent.cfg.Permissions = permission.New(permission.Config{Dir: dir})
			e.agent.cfg.Ask = tt.ask
			if _, err := e.agent.Run(context.Background(), "go", nil); err != nil {
				t.Fatal(err)
			}
			res := userBlocks(e.api.requests()[1])[0]
			if res["is_error"] != true || !strings.Contains(resultText(res).(string), tt.want) || !exists() {
				t.Fatalf("result %v, exists %v", res, exists())
			}
		})
	}
}
