package agent

import (
	"context"
	"fmt"
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
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	dir := t.TempDir()
	victim := filepath.Join(dir, "x")
	mk := func() {
		if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	exists := func() bool { _, err := os.Stat(victim); return err == nil }
	rm := "rm -rf " + victim

	// "always" on a compound command adds the rule of every part no rule
	// allows: neither part asks again.
	mk()
	made := filepath.Join(dir, "made")
	e := newEnv(t, toolUse(bashCall("toolu_1", "touch "+made+" && cat "+made)), toolUse(bashCall("toolu_2", "touch "+made+"2; cat "+made+"2")), say("done"))
	e.agent.cfg.Permissions = permission.New(permission.Config{Dir: dir})
	var asked []Question
	e.agent.cfg.Ask = func(_ context.Context, q Question) Answer {
		asked = append(asked, q)
		return Answer{Kind: AllowAlways}
	}
	if _, err := e.agent.Run(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || fmt.Sprint(asked[0].Rules) != "[Bash(touch:*) Bash(cat:*)]" || len(asked[0].Risky) != 0 {
		t.Fatalf("asked %+v", asked)
	}
	// A risky part (rm) gets no rule from "always": the next rm asks again.
	e = newEnv(t, toolUse(bashCall("toolu_1", "cat "+made+" && "+rm)), toolUse(bashCall("toolu_2", "rm -f /nonexistent")), say("done"))
	e.agent.cfg.Permissions = permission.New(permission.Config{Dir: dir})
	asked = nil
	e.agent.cfg.Ask = func(_ context.Context, q Question) Answer {
		asked = append(asked, q)
		return Answer{Kind: AllowAlways}
	}
	if _, err := e.agent.Run(context.Background(), "go", nil); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 || fmt.Sprint(asked[0].Rules) != "[Bash(cat:*)]" || fmt.Sprint(asked[0].Risky) != "["+rm+"]" ||
		!strings.Contains(asked[0].Why, `"cat `) || !strings.Contains(asked[0].Why, `"`+rm+`" are not allowed`) || len(asked[1].Rules) != 0 || exists() {
		t.Fatalf("asked %+v, exists %v", asked, exists())
	}

	for _, tt := range []struct {
		name string
		ask  func(context.Context, Question) Answer
		want string
	}{
		{"refused with a reason", func(context.Context, Question) Answer { return Answer{Kind: Refuse, Reason: "not my files"} }, "Refused by the person: they did not allow this call. They said: not my files"},
		{"no one to ask", nil, "The rule Bash(" + rm + ") would allow it"},
		{"no one to ask, compound", nil, "The rules Bash(ls:*), Bash(" + rm + ") would allow it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mk()
			command := rm
			if strings.Contains(tt.name, "compound") {
				command = "ls && " + rm
			}
			e := newEnv(t, toolUse(bashCall("toolu_1", command)), say("ok"))
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
