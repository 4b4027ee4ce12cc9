package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// WatchOptions are the flags of `todo-shell watch`.
type WatchOptions struct {
	*Options
	Arg    string
	Claude bool
	Once   bool
	JSON   bool
	// Codex, Gemini and Opencode follow those agents' sessions of DIR.
	Codex, Gemini, Opencode bool
	// ClaudeTasks follows a Claude Code task-list directory.
	ClaudeTasks bool
	// All shows every live plan on this machine.
	All bool
	// Tasks follows the session's task plan instead of its todo list.
	Tasks bool
}

// noPlanText is what watch and replay say of a Claude Code session whose
// tools keep no plan.
const noPlanText = watchui.NoPlanText

// watchHeader is the line above watch's panel.
func watchHeader(u follow.Update, what string) string { return watchui.Header(u, what) }

func newCmdWatch(o *Options) *cobra.Command {
	wo := &WatchOptions{Options: o}
	cmd := &cobra.Command{
		Use:   "watch [ID] | watch --claude [DIR]",
		Short: "Show a session's task panel live, in another terminal",
		Long: `Watch shows the task panel of a todo-shell session and redraws it whenever the plan
changes: run it in a tmux split beside an agent. Without an ID it follows the most
recent live session that has a plan: it moves to another live session with a plan when
the one shown ends or has none, never to an empty one, and says so in one line.

With --plan NAME (or TODO_SHELL_PLAN) it follows the shared task plan NAME that
'todo-shell mcp --plan NAME' agents and 'todo-shell --plan NAME' shells change: every
version, with each task's owner and blockers.

With --claude it shows the plan of a Claude Code session instead: the newest transcript
under ~/.claude/projects/ for DIR (default: the current directory), following its
TodoWrite, TaskCreate and TaskUpdate calls as the file grows. That transcript format is
Claude Code's own and not promised to stay the same.

q or Ctrl+C quits.`,
		Example: `  $ todo-shell watch
  $ todo-shell watch session-3kTq9ZfW1bXe
  $ todo-shell watch --once
  $ todo-shell watch --plan build
  $ todo-shell watch --json | jq -c '.completed'
  $ todo-shell watch --claude ~/src/my-app`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &UsageError{fmt.Errorf("watch takes at most one argument")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				wo.Arg = args[0]
			}
			return watchRun(wo)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&wo.Claude, "claude", false, "follow a Claude Code session of DIR (default: the current directory)")
	f.BoolVar(&wo.Codex, "codex", false, "follow a Codex session of DIR (its update_plan plan)")
	f.BoolVar(&wo.Gemini, "gemini", false, "follow a Gemini CLI session of DIR (its write_todos list)")
	f.BoolVar(&wo.Opencode, "opencode", false, "follow an opencode session of DIR (its todowrite list)")
	f.BoolVar(&wo.ClaudeTasks, "claude-tasks", false, "follow a Claude Code task list LIST (~/.claude/tasks/LIST; default: CLAUDE_CODE_TASK_LIST_ID, or the newest session's)")
	f.BoolVar(&wo.All, "all", false, "show every live plan on this machine: todo-shell sessions and shared plans, Claude Code sessions and task lists, Codex, Gemini CLI, opencode")
	cmd.MarkFlagsMutuallyExclusive("claude", "codex", "gemini", "opencode", "claude-tasks", "all")
	f.BoolVar(&wo.Once, "once", false, "print the panel once and exit")
	f.BoolVar(&wo.JSON, "json", false, "print each plan version as a JSON line as it happens")
	f.BoolVar(&wo.Tasks, "tasks", false, "follow the session's task plan (TaskCreate/TaskUpdate) instead of its todo list")
	return cmd
}

// claudeRoot is where Claude Code keeps its project transcripts:
// $CLAUDE_CONFIG_DIR/projects, or ~/.claude/projects.
func claudeRoot(getenv func(string) string) (string, error) {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "projects"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("watch --claude: no home directory: %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".claude", "projects"), nil
}

// watchTarget turns the options into what to follow.
func watchTarget(wo *WatchOptions) (watched, error) {
	if w, ok, err := agentTarget(wo); ok {
		return w, err
	}
	if wo.Claude {
		abs, err := watchDir(wo)
		if err != nil {
			return watched{}, err
		}
		root, err := claudeRoot(wo.Getenv)
		if err != nil {
			return watched{}, err
		}
		pd := follow.ClaudeProjectDir(root, abs)
		return agentWatched(follow.Claude{ProjectDir: pd}, "Claude Code", abs, pd), nil
	}
	if wo.Arg != "" {
		if err := offload.CheckID("session id", wo.Arg); err != nil {
			return watched{}, &UsageError{err}
		}
	}
	return watched{target: follow.Session{Dir: wo.OffloadDir, ID: wo.Arg, Newest: !wo.JSON}, what: "sessions in " + wo.OffloadDir}, nil
}

func watchRun(wo *WatchOptions) error {
	if wo.All {
		return watchAll(wo)
	}
	limits, err := limitsOf(wo.Options)
	if err != nil {
		return err
	}
	name, err := planName(wo.Options)
	if err != nil {
		return err
	}
	if name != "" && (wo.Claude || wo.Arg != "" || wo.Tasks) {
		return &UsageError{fmt.Errorf("watch --plan takes no session id, --tasks or --claude")}
	}
	if wo.Tasks {
		return watchTasks(wo, limits)
	}
	if name != "" {
		dir, err := planDir(wo.Options, name)
		if err != nil {
			return err
		}
		return watchSharedPlan(wo, name, dir, limits)
	}
	w, err := watchTarget(wo)
	if err != nil {
		return err
	}
	if err := checkSession(wo); err != nil {
		return err
	}
	src := watchui.FromTarget(w.target, w.what)
	if _, ok := w.target.(follow.Session); ok && !wo.JSON {
		// What the shell's panel shows: the todos, then the tasks.
		// --json stays the todo list's record (--tasks --json: the plan's).
		src = withSessionTasks(src, wo.OffloadDir)
	}
	if w.none != "" {
		// --once with no session of the agent says so and exits 1 (a
		// script learns there was nothing); live watch waits for one.
		src = onceOrNone(src, w.none)
	}
	return watchShow(wo, src, w.what, limits)
}

// watchTasks is watch --tasks: the task plan of the session named, or of
// the latest session.
func watchTasks(wo *WatchOptions, limits todo.Limits) error {
	if wo.Claude {
		return &UsageError{fmt.Errorf("watch --tasks is for todo-shell sessions, not --claude")}
	}
	id := wo.Arg
	if id == "" {
		var err error
		if id, _, err = session.Latest(wo.OffloadDir); err != nil || id == "" {
			return fmt.Errorf("watch --tasks: no session in %s", wo.OffloadDir)
		}
	} else if err := offload.CheckID("session id", id); err != nil {
		return &UsageError{err}
	} else if _, err := os.Stat(filepath.Join(wo.OffloadDir, id)); err != nil {
		return fmt.Errorf("watch: no session %s in %s (see todo-shell sessions)", id, wo.OffloadDir)
	}
	return watchPlan(wo, "of session "+id, filepath.Join(wo.OffloadDir, id), limits)
}

// checkSession refuses a missing session when asked about one todo-shell
// session: it is an error, not an empty plan to wait on forever (a typo
// would look like "no plan yet").
func checkSession(wo *WatchOptions) error {
	if wo.Arg == "" || wo.Claude || wo.Codex || wo.Gemini || wo.Opencode || wo.ClaudeTasks {
		return nil
	}
	if _, err := os.Stat(filepath.Join(wo.OffloadDir, wo.Arg)); err != nil {
		return fmt.Errorf("watch: no session %s in %s (see todo-shell sessions)", wo.Arg, wo.OffloadDir)
	}
	return nil
}

// watchShow runs watch's front end over src.
func watchShow(wo *WatchOptions, src watchui.Source, what string, limits todo.Limits) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watchui.Run(ctx, watchui.Options{
		Source:   src,
		What:     what,
		Once:     wo.Once,
		JSON:     wo.JSON,
		NoColor:  wo.NoColor || wo.Getenv("NO_COLOR") != "",
		Progress: painter.ProgressEnabled(wo.NoProgress, wo.Getenv),
		Bar:      painter.ProgressBarSupported(wo.Getenv),
		Limits:   limits,
		In:       wo.Streams.In,
		Out:      wo.Streams.Out,
		ErrOut:   wo.Streams.ErrOut,
	})
}
