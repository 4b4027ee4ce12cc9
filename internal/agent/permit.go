package agent

import (
	"context"
	"fmt"

	"github.com/todo-shell/todo-shell/internal/permission"
	"github.com/todo-shell/todo-shell/tools"
)

// Question asks a person whether a tool call may run.
type Question struct {
	Use tools.ToolUse
	// Rule is the rule that "always" adds (Bash(rm:*), Edit(src/a.go)).
	Rule permission.Rule
	// Why says what made the call need asking beyond having no rule
	// ("outside the working directory"), or "".
	Why string
}

// AnswerKind is a person's answer.
type AnswerKind int

// The answers.
const (
	Refuse      AnswerKind = iota // no, with an optional reason for the model
	AllowOnce                     // yes, this call
	AllowAlways                   // yes, and Question.Rule for the rest of the session
)

// Answer is what a person said.
type Answer struct {
	Kind   AnswerKind
	Reason string // with Refuse: what to tell the model
}

// PermissionAsked reports that a call waits for a person's answer (the
// front end's Ask shows the question); PermissionAnswered follows.
type PermissionAsked struct{ Question Question }

// PermissionAnswered reports the answer to the last question.
type PermissionAnswered struct{ Answer Answer }

func (PermissionAsked) isEvent()    {}
func (PermissionAnswered) isEvent() {}

// permit decides whether use may run. When it may not, it returns the
// is_error result that goes back to the model instead.
func (a *Agent) permit(ctx context.Context, use tools.ToolUse, emit func(Event)) (tools.ToolResult, bool) {
	p := a.cfg.Permissions
	if p == nil {
		return tools.ToolResult{}, true
	}
	refuse := func(msg string) (tools.ToolResult, bool) {
		return tools.ToolResult{Type: "tool_result", ToolUseID: use.ID, Content: msg, IsError: true}, false
	}
	d := p.Check(use.Name, use.Input)
	switch d.Verdict {
	case permission.Allowed:
		return tools.ToolResult{}, true
	case permission.Denied:
		return refuse(fmt.Sprintf("Permission denied: the rule %s in the deny list forbids this call; do not try to get around it", d.Rule))
	}
	why := ""
	if d.Why != "" {
		why = " (" + d.Why + ")"
	}
	if a.cfg.Ask == nil {
		return refuse(fmt.Sprintf("Permission needed: this %s call is not allowed by any rule%s and there is no one to ask. The rule %s would allow it (--allowedTools %q, or permissions.allow in .todo-shell/settings.json)", use.Name, why, d.Rule, d.Rule.String()))
	}
	q := Question{Use: use, Rule: d.Rule, Why: d.Why}
	emit(PermissionAsked{Question: q})
	ans := a.cfg.Ask(ctx, q)
	emit(PermissionAnswered{Answer: ans})
	if ctx.Err() != nil {
		return refuse("Interrupted by the user before this tool ran")
	}
	switch ans.Kind {
	case AllowAlways:
		p.Allow(d.Rule)
		return tools.ToolResult{}, true
	case AllowOnce:
		return tools.ToolResult{}, true
	}
	msg := "Refused by the person: they did not allow this call"
	if ans.Reason != "" {
		msg += ". They said: " + ans.Reason
	}
	return refuse(msg)
}
