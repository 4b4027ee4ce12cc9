package cmd

import (
	"fmt"
	"path/filepath"
	"runtime/debug"

	"github.com/todo-shell/todo-shell/internal/plans"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/bash"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
	"github.com/todo-shell/todo-shell/tools/toolset"
)

// app is the engine one run of todo-shell works with.
type app struct {
	store  *todo.Store
	tasks  *task.Store                  // the task plan: the session's, or a shared one (--plan)
	plan   *tools.Broker[todo.Snapshot] // what the panel shows: the todos, then the tasks
	stop   func()                       // stops following a shared plan
	shared bool                         // the task plan is a shared one (--plan)
	// planHold marks the shared plan in use by this process (nil: none).
	planHold *plans.Hold

	registry *tools.Registry
	executor *tools.Executor // the registry under the offload policy: every front end calls through it
	runner   *bash.Runner
	shell    *router.Shell
	offload  offload.Config
	noColor  bool
}

// newApp checks the options and wires the engine.
func newApp(o *Options) (*app, error) {
	limits, err := limitsOf(o)
	if err != nil {
		return nil, err
	}
	session := o.Session
	if session == "" {
		session = NewSessionID()
	} else if err := offload.CheckID("session id", session); err != nil {
		return nil, &UsageError{fmt.Errorf("--session: %w", err)}
	}
	if o.OffloadThreshold < 0 {
		return nil, &UsageError{fmt.Errorf("--offload-threshold must be 0 (off) or more, got %d", o.OffloadThreshold)}
	}
	if o.OffloadMaxMiB < 0 || o.OffloadMaxMiB > 1<<20 {
		return nil, &UsageError{fmt.Errorf("--offload-max-mib must be 0 (no cap) to %d, got %d", 1<<20, o.OffloadMaxMiB)}
	}
	if o.BashTimeout <= 0 {
		return nil, &UsageError{fmt.Errorf("--bash-timeout must be more than 0, got %s", o.BashTimeout)}
	}
	// Absolute once, here: the shell's `cd` moves the commands, and
	// /offloads, /open and the note on leaving name files and directories
	// that must hold from any directory.
	offDir := o.OffloadDir
	if abs, err := filepath.Abs(offDir); err == nil {
		offDir = abs
	}
	off := offload.Config{Dir: offDir, Session: session, Threshold: o.OffloadThreshold, MaxFile: int64(o.OffloadMaxMiB) << 20, FS: o.offloadFS}
	// What a killed todo-shell could not remove.
	bash.CleanStaleState("")
	offload.CleanStaleTemps(o.OffloadDir)

	set, err := toolset.New(toolset.Options{Limits: limits, Offload: off, BashTimeout: o.BashTimeout, Caller: o.caller, Files: !o.noFileTools,
		Plain: render.PlainPlan, Redact: o.redact})
	if err != nil {
		return nil, err
	}
	return &app{
		store:    set.Store,
		tasks:    set.Tasks,
		plan:     set.Plan,
		stop:     func() {},
		registry: set.Registry,
		executor: set.Executor,
		runner:   set.Runner,
		offload:  off,
		noColor:  o.NoColor || o.Getenv("NO_COLOR") != "",
		shell:    &router.Shell{Executor: set.Executor, Offload: off},
	}, nil
}

// limitsOf returns the todo limits: the environment's, overridden by the
// flags that were given.
func limitsOf(o *Options) (todo.Limits, error) {
	// A flag given overrides its variable: a malformed variable that a
	// flag overrides is never read.
	flags := []struct {
		env   string
		value int
		given bool
		dst   func(*todo.Limits) *int
	}{
		{todo.EnvMaxItems, o.MaxItems, o.maxItemsGiven, func(l *todo.Limits) *int { return &l.MaxItems }},
		{todo.EnvMaxContentLength, o.MaxContentLength, o.maxContentLengthGiven, func(l *todo.Limits) *int { return &l.MaxContentLength }},
		{todo.EnvMaxInProgress, o.MaxInProgress, o.maxInProgressGiven, func(l *todo.Limits) *int { return &l.MaxInProgress }},
	}
	limits, err := todo.LimitsFromEnv(func(name string) string {
		for _, f := range flags {
			if f.env == name && f.given {
				return ""
			}
		}
		return o.Getenv(name)
	})
	if err != nil {
		return limits, &UsageError{err}
	}
	for _, f := range flags {
		if f.given {
			*f.dst(&limits) = f.value
		}
	}
	if err := limits.Validate(); err != nil {
		return limits, &UsageError{err}
	}
	return limits, nil
}

// batchGC tunes the garbage collector for serve and script mode, whose live
// heap is tiny and whose garbage is all short-lived: collecting at 5× the
// live heap instead of 2× cuts GC cycles per call by about four and costs a
// few MB. GOGC, when set, wins.
//
// A soft memory limit (32 MiB, unless GOMEMLIMIT is set) keeps that extra
// from growing with one large result: an output kept in memory because no
// offload file could be written is up to 8 MiB, and its JSON form more.
func batchGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(32 << 20)
	}
}

// NewSessionID returns a fresh session id: "session-" and twelve random
// characters from [A-Za-z0-9].
func NewSessionID() string {
	return "session-" + tools.RandomBase62(12)
}
