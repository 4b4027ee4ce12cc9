package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/live"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/termprogress"
	"github.com/todo-shell/todo-shell/render"
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
}

// waitingText is what the panel shows while the list is empty.
const waitingText = "waiting for a plan…"

// noPlanText is what watch and replay say of a Claude Code session whose
// tools keep no plan.
const noPlanText = "this session keeps no plan; set CLAUDE_CODE_ENABLE_TODO_TOOLS=1, or give Claude todo-shell's plan over MCP"

func newCmdWatch(o *Options) *cobra.Command {
	wo := &WatchOptions{Options: o}
	cmd := &cobra.Command{
		Use:   "watch [ID] | watch --claude [DIR]",
		Short: "Show a session's task panel live, in another terminal",
		Long: `Watch shows the task panel of a todo-shell session and redraws it whenever the plan
changes: run it in a tmux split beside an agent. Without an ID it follows the most
recent live session that has a plan, and moves only to a newer one as good.

With --claude it shows the plan of a Claude Code session instead: the newest transcript
under ~/.claude/projects/ for DIR (default: the current directory), following its
TodoWrite, TaskCreate and TaskUpdate calls as the file grows. That transcript format is
Claude Code's own and not promised to stay the same.

q or Ctrl+C quits.`,
		Example: `  $ todo-shell watch
  $ todo-shell watch session-3kTq9ZfW1bXe
  $ todo-shell watch --once
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
	f.BoolVar(&wo.All, "all", false, "show every live plan on this machine: todo-shell, Claude Code sessions and task lists, Codex, Gemini CLI")
	cmd.MarkFlagsMutuallyExclusive("claude", "codex", "gemini", "opencode", "claude-tasks", "all")
	f.BoolVar(&wo.Once, "once", false, "print the panel once and exit")
	f.BoolVar(&wo.JSON, "json", false, "print each plan version as a JSON line as it happens")
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
func watchTarget(wo *WatchOptions) (follow.Target, string, error) {
	if t, what, ok, err := agentTarget(wo); ok {
		return t, what, err
	}
	if wo.Claude {
		dir := wo.Arg
		if dir == "" {
			d, err := os.Getwd()
			if err != nil {
				return nil, "", err
			}
			dir = d
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, "", err
		}
		root, err := claudeRoot(wo.Getenv)
		if err != nil {
			return nil, "", err
		}
		pd := follow.ClaudeProjectDir(root, abs)
		return follow.Claude{ProjectDir: pd}, "Claude Code sessions of " + abs + " (" + pd + ")", nil
	}
	if wo.Arg != "" {
		if err := offload.CheckID("session id", wo.Arg); err != nil {
			return nil, "", &UsageError{err}
		}
	}
	return follow.Session{Dir: wo.OffloadDir, ID: wo.Arg, Newest: !wo.JSON}, "sessions in " + wo.OffloadDir, nil
}

func watchRun(wo *WatchOptions) error {
	if wo.All {
		return watchAll(wo)
	}
	limits, err := limitsOf(wo.Options)
	if err != nil {
		return err
	}
	target, what, err := watchTarget(wo)
	if err != nil {
		return err
	}
	out := wo.Streams.Out
	if wo.Once && !wo.Claude && !wo.Codex && !wo.Gemini && !wo.ClaudeTasks && wo.Arg != "" {
		// Asked once about one session: a session that is not there is an
		// error, not an empty plan (a typo would look like "no plan yet").
		if _, err := os.Stat(filepath.Join(wo.OffloadDir, wo.Arg)); err != nil {
			return fmt.Errorf("watch: no session %s in %s (see todo-shell sessions)", wo.Arg, wo.OffloadDir)
		}
	}
	if wo.Once {
		u, err := follow.Once(target)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("watch: no %s: %w", what, err)
			}
			return fmt.Errorf("watch: %w", err)
		}
		for _, w := range u.Warnings {
			fmt.Fprintln(wo.Streams.ErrOut, "todo-shell: warning: "+w)
		}
		if wo.JSON {
			if u.Version == nil {
				return nil
			}
			var prev *plan.Version
			if n := len(u.New); n > 1 {
				prev = u.New[n-2]
			}
			v := u.Version
			_, err := out.Write(append(plan.AppendRecord(nil, v, plan.Changes(prev, v), plan.Check(v, limits)), '\n'))
			return err
		}
		st, width := watchStyles(wo, out)
		_, err = io.WriteString(out, updateText(u, width, &st)+"\n")
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	updates := make(chan follow.Update, 64)
	errc := make(chan error, 1)
	go func() {
		errc <- follow.Follow(ctx, target, func(u follow.Update) {
			select {
			case updates <- u:
			case <-ctx.Done():
			}
		})
	}()

	in, inOK := wo.Streams.In.(*os.File)
	outF, outOK := out.(*os.File)
	if wo.JSON || !outOK || !isTerminal(outF) {
		return watchLines(ctx, wo, updates, errc, limits)
	}

	st, width := watchStyles(wo, out)
	keys := make(chan live.Key, 16)
	if inOK && isTerminal(in) {
		state, err := term.MakeRaw(in.Fd())
		if err != nil {
			return err
		}
		defer func() { _ = term.Restore(in.Fd(), state) }() // on the way out: nothing left to do if it fails
		go live.ReadKeys(in, keys)
	}
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)

	screen := live.NewScreen(out)
	defer screen.Close()
	var prog *termprogress.Progress
	if termprogress.Enabled(wo.NoProgress, wo.Getenv) {
		prog = termprogress.New(out, termprogress.SupportsBar(wo.Getenv))
		defer prog.Close()
	}
	var last follow.Update
	lastWarning := "" // the newest file or line skipped, kept in the header
	draw := func() {
		head := watchHeader(last, what)
		if lastWarning != "" {
			head += " · " + render.Sanitize(lastWarning)
		}
		head = st.Dim.Render(head)
		screen.Draw(head + "\n" + updateText(last, width, &st))
		if prog != nil && last.Version != nil {
			prog.Set(last.Version.Todos)
		}
	}
	draw()
	for {
		select {
		case u := <-updates:
			last = u
			// Take every update already queued: draw only the newest.
			for more := true; more; {
				if n := len(u.Warnings); n > 0 {
					lastWarning = u.Warnings[n-1]
				}
				select {
				case u = <-updates:
					last = u
				default:
					more = false
				}
			}
			draw()
		case k := <-keys:
			if k == live.KeyQuit {
				return nil
			}
		case <-winch:
			if w, _, err := term.GetSize(outF.Fd()); err == nil && w > 0 {
				width = w
			}
			screen.Redraw()
			draw()
		case err := <-errc:
			if err != nil {
				return err
			}
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// watchLines prints each version as a JSON line (--json), or each new panel
// as plain text when standard output is not a terminal.
func watchLines(ctx context.Context, wo *WatchOptions, updates <-chan follow.Update, errc <-chan error, limits todo.Limits) error {
	w := bufio.NewWriter(wo.Streams.Out)
	st := render.PlainStyles()
	var prev *plan.Version
	var buf []byte
	source := ""
	saidNoPlan := false
	for {
		select {
		case u := <-updates:
			for _, line := range append(u.Warnings, u.Note) {
				if line != "" {
					fmt.Fprintln(wo.Streams.ErrOut, "todo-shell: watch: "+line)
				}
			}
			if u.Source != source {
				prev, source = nil, u.Source
			}
			switch {
			case wo.JSON:
				for _, v := range u.New {
					buf = plan.AppendRecord(buf[:0], v, plan.Changes(prev, v), plan.Check(v, limits))
					buf = append(buf, '\n')
					_, _ = w.Write(buf) // a bufio.Writer keeps its first error: the Flush below reports it
					prev = v
				}
			case u.NoPlan && u.Version == nil:
				if !saidNoPlan { // once, not at every line the session adds
					fmt.Fprintf(w, "%s\n%s\n\n", watchHeader(u, ""), updateText(u, 80, &st))
					saidNoPlan = true
				}
			case len(u.New) > 0 || u.Version == nil:
				fmt.Fprintf(w, "%s\n%s\n\n", watchHeader(u, ""), panelText(u.Version, 80, &st))
			}
			if err := w.Flush(); err != nil {
				return nil // the reader went away
			}
		case err := <-errc:
			return err
		case <-ctx.Done():
			return nil
		}
	}
}

func watchHeader(u follow.Update, what string) string {
	if u.Source == "" {
		if what == "" {
			return "no session yet"
		}
		return render.Sanitize("no session yet in " + what)
	}
	s := "watching " + u.Source
	if u.Version != nil {
		s += " · v" + fmt.Sprint(u.Version.N)
	}
	if u.Note != "" {
		s += " · " + u.Note
	}
	if what != "" {
		s += " · q quits"
	}
	return render.Sanitize(s)
}

// panelText is the task box of v, or the waiting line.
func panelText(v *plan.Version, width int, st *render.Styles) string {
	if v == nil || len(v.Todos) == 0 {
		return st.Dim.Render(waitingText)
	}
	return strings.TrimSuffix(render.TaskBox(todo.Snapshot{Items: plan.Display(v), Version: uint64(v.N)}, width, st), "\n")
}

// updateText is the panel of an update, or why there is none.
func updateText(u follow.Update, width int, st *render.Styles) string {
	if u.Version == nil && u.NoPlan {
		return st.Dim.Render(noPlanText)
	}
	return panelText(u.Version, width, st)
}

// watchStyles returns the styles and width to draw with on out.
func watchStyles(wo *WatchOptions, out io.Writer) (render.Styles, int) {
	f, ok := out.(*os.File)
	if !ok || !isTerminal(f) {
		return render.PlainStyles(), 80
	}
	width := 80
	if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
		width = w
	}
	r := lipgloss.NewRenderer(f)
	if wo.NoColor || wo.Getenv("NO_COLOR") != "" {
		r.SetColorProfile(termenv.Ascii)
	}
	r.SetHasDarkBackground(true)
	return render.DefaultStyles(r), width
}
