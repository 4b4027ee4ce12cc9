package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/todo-shell/todo-shell/internal/permission"
	"github.com/todo-shell/todo-shell/tools"
)

// Question asks a person whether a tool call may run.
type Question struct {
	Use tools.ToolUse
	// Rules are the rules that "always" adds (Bash(cat:*), Edit(src/a.go)):
	// one for each part of the call no rule allows, less the Risky ones.
	// None: "always" is not offered.
	Rules []permission.Rule
	// Risky are the parts of a command no rule allows that are too
	// dangerous to allow for the session (rm, sudo, > file): "always"
	// leaves them asking each time.
	Risky []string
	// Why says what made the call need asking beyond having no rule
	// ("outside the working directory", the compound parts not allowed),
	// or "".
	Why string
}

// AnswerKind is a person's answer.
type AnswerKind int

// The answers.
const (
	Refuse      AnswerKind = iota // no, with an optional reason for the model
	AllowOnce                     // yes, this call
	AllowAlways                   // yes, and Question.Rules for the rest of the session
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

// PermissionRefused reports a call refused without asking: a deny rule
// forbids it, or it needs a person and there is none (agent -p). Message is
// what the model is told, on one line; a front end with no one to ask
// shows it to the person too.
type PermissionRefused struct {
	Use     tools.ToolUse
	Message string
}

func (PermissionAsked) isEvent()    {}
func (PermissionAnswered) isEvent() {}
func (PermissionRefused) isEvent()  {}

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
		msg := fmt.Sprintf("Permission denied: the rule %s in the deny list forbids this %s call; do not try to get around it", d.Rule, use.Name)
		emit(PermissionRefused{Use: use, Message: flatLine(msg)})
		return refuse(msg)
	}
	if a.cfg.Ask == nil {
		msg := noOneToAsk(use.Name, d)
		emit(PermissionRefused{Use: use, Message: flatLine(msg)})
		return refuse(msg)
	}
	q := Question{Use: use, Rules: d.Always, Risky: d.Risky, Why: d.Why}
	emit(PermissionAsked{Question: q})
	ans := a.cfg.Ask(ctx, q)
	emit(PermissionAnswered{Answer: ans})
	if ctx.Err() != nil {
		return refuse("Interrupted by the user before this tool ran")
	}
	switch ans.Kind {
	case AllowAlways:
		for _, r := range d.Always {
			p.Allow(r)
		}
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

// noOneToAsk is what the model is told of a call that needs a person when
// there is none (agent -p): why, and the rules that would allow it.
func noOneToAsk(tool string, d permission.Decision) string {
	why := ""
	if d.Why != "" {
		why = " (" + d.Why + ")"
	}
	names := make([]string, len(d.Rules))
	for i, r := range d.Rules {
		names[i] = r.String()
	}
	rules := "The rule " + strings.Join(names, ", ") + " would allow it"
	if len(names) > 1 {
		rules = "The rules " + strings.Join(names, ", ") + " would allow it"
	}
	if d.Protected != "" {
		return fmt.Sprintf("Permission needed: this %s call writes %s (%s), which asks in every mode but bypassPermissions, and there is no one to ask. %s (--allowedTools %q)",
			tool, d.Protected, d.ProtectedWhat, rules, strings.Join(names, ","))
	}
	return fmt.Sprintf("Permission needed: this %s call is not allowed by any rule%s and there is no one to ask. %s (--allowedTools %q, or permissions.allow in .todo-shell/settings.json)", tool, why, rules, strings.Join(names, ","))
}

// flatLine is msg on one line: a newline in a command it quotes is shown
// as \n.
func flatLine(msg string) string {
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(msg)
}
