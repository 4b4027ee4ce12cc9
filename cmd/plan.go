package cmd

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/todo-shell/todo-shell/internal/plans"
	"github.com/todo-shell/todo-shell/repl/history"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// EnvPlan names the shared plan when --plan is not given.
const EnvPlan = "TODO_SHELL_PLAN"

// planName returns the shared plan asked for (--plan, else TODO_SHELL_PLAN),
// or "" for none.
func planName(o *Options) (string, error) {
	name := o.Plan
	if name == "" {
		name = o.Getenv(EnvPlan)
	}
	if name == "" {
		return "", nil
	}
	if err := offload.CheckID("plan name", name); err != nil {
		return "", &UsageError{fmt.Errorf("--plan: %w", err)}
	}
	return name, nil
}

// planOf is the shared plan's name for notes: "" when there is none or the
// name is not valid (the run has refused it already).
func planOf(o *Options) string {
	name, err := planName(o)
	if err != nil {
		return ""
	}
	return name
}

// planDir is where the shared plan name lives:
// $XDG_STATE_HOME/todo-shell/plans/NAME.
func planDir(o *Options, name string) (string, error) {
	base := history.DefaultDir(o.Getenv)
	if base == "" {
		return "", fmt.Errorf("--plan: no state directory (set XDG_STATE_HOME or HOME)")
	}
	return filepath.Join(base, "plans", name), nil
}

// attachPlan puts the app's task plan on disk: the shared plan named by
// --plan, else sessionDir ("" keeps it in memory). A shared plan is
// followed, so the panel shows what other processes do to it.
func attachPlan(o *Options, a *app, sessionDir string) error {
	name, err := planName(o)
	if err != nil {
		return err
	}
	dir := sessionDir
	if name != "" {
		if dir, err = planDir(o, name); err != nil {
			return err
		}
	}
	if dir == "" {
		return nil
	}
	attach := a.tasks.Attach
	if name == "" {
		attach = a.tasks.AttachLazy // a session's files appear with its first task
	} else {
		// In use while this process runs: clean leaves it alone.
		if a.planHold, err = plans.Use(dir); err != nil {
			return fmt.Errorf("task plan: %w", err)
		}
	}
	if err := attach(dir); err != nil {
		_ = a.planHold.Release()
		a.planHold = nil
		return fmt.Errorf("task plan: %w", err)
	}
	a.shared = name != ""
	return nil
}

// followShared follows a shared plan while the shell runs, so the panel
// shows what other processes do to it as they do it.
func followShared(a *app) {
	if !a.shared {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = a.tasks.Follow(ctx)
	}()
	a.stop = func() { cancel(); <-done }
}

// closeTasks stops following the plan and closes it.
func closeTasks(a *app, errOut io.Writer) {
	if a == nil {
		return
	}
	a.stop()
	if err := a.tasks.Close(); err != nil {
		fmt.Fprintln(errOut, "todo-shell: warning: task plan not saved: "+err.Error())
	}
	// A shared plan that never got a task, and no other process uses, goes.
	if err := a.planHold.Release(); err != nil {
		fmt.Fprintln(errOut, "todo-shell: warning: empty task plan not removed: "+err.Error())
	}
	a.planHold = nil
}
