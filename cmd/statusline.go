package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/hold"
	"github.com/todo-shell/todo-shell/internal/statusline"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// statusBudget is the most transcript bytes one status line reads: a
// transcript that grew by more since it was last read is seen in its last
// statusBudget bytes only (the line stays within its time whatever the
// transcript's size).
const statusBudget = 4 << 20

// StatusOptions are the flags of `todo-shell statusline` and `todo-shell
// status`.
type StatusOptions struct {
	*Options
	Format     string
	Width      int
	Claude     string // status --claude DIR
	Transcript string // status --transcript FILE
}

func newCmdStatusLine(o *Options) *cobra.Command {
	so := &StatusOptions{Options: o}
	cmd := &cobra.Command{
		Use:   "statusline",
		Short: "Claude Code's status line: the plan in one line",
		Long: `Statusline is a command for Claude Code's statusLine setting: it reads the JSON Claude
Code passes on standard input (the session and its transcript) and prints the session's
plan in one line, "Tasks 3/5 ▸ Writing tests", with "· 2 dropped" when items left the plan
unfinished since the last prompt. It is in colour unless NO_COLOR is set (or --no-color).
With a shared plan named (--plan or TODO_SHELL_PLAN) its tasks are counted too.

It reads only what the transcript gained since the last call (its state is shared with
'todo-shell hook'), and never more than the last 4 MB of it.`,
		Example: `  $ todo-shell hook --print      # the statusLine setting, with the hooks
  $ echo '{"transcript_path":"/home/me/.claude/projects/-home-me-app/6f1c.jsonl"}' | todo-shell statusline`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("width") {
				so.Width = statusLineWidth(so.Getenv)
			}
			return statusLineRun(so)
		},
	}
	cmd.Flags().IntVar(&so.Width, "width", statusline.DefaultWidth, "the most cells the line takes (default: the width of Claude Code's terminal, less its margin)")
	return cmd
}

func newCmdStatus(o *Options) *cobra.Command {
	so := &StatusOptions{Options: o}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "The plan in one line, for tmux's status bar",
		Long: `Status prints a plan in one line, "Tasks 3/5 ▸ Writing tests · 1 dropped": that of the
newest Claude Code session of a directory (--claude DIR), of an agent's transcript
(--transcript FILE: Claude Code, Codex or Gemini CLI), of a shared plan (--plan NAME), or
of a todo-shell session (--session ID, in --offload-dir). With nothing to show it prints
nothing. --format tmux draws it in tmux's style syntax, for status-right:

  set -g status-right '#(todo-shell status --claude ~/src/app --format tmux)'

The plan's text is neutralised: no escape sequence, and in tmux format no '#', gets
through as it is.`,
		Example: `  $ todo-shell status --claude .
  $ todo-shell status --plan build --format tmux
  $ todo-shell status --transcript ~/.codex/sessions/2026/11/25/rollout-x.jsonl`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			n := 0
			for _, s := range []string{so.Claude, so.Transcript, so.Session} {
				if s != "" {
					n++
				}
			}
			if n > 1 {
				return &UsageError{errors.New("--claude, --transcript and --session name one source each: give one")}
			}
			return statusRun(so)
		},
	}
	f := cmd.Flags()
	f.StringVar(&so.Claude, "claude", "", "show the newest Claude Code session of DIR")
	f.StringVar(&so.Transcript, "transcript", "", "show the plan of an agent's transcript FILE")
	f.StringVar(&so.Format, "format", "", "plain, ansi or tmux (default: ansi on a terminal unless NO_COLOR, else plain)")
	f.IntVar(&so.Width, "width", statusline.DefaultWidth, "the most cells the line takes")
	return cmd
}

// statusLineInput is what Claude Code passes a status line command: the
// fields read.
type statusLineInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
}

func statusLineRun(so *StatusOptions) error {
	b, err := io.ReadAll(io.LimitReader(so.Streams.In, 1<<20))
	if err != nil {
		return fmt.Errorf("statusline: %w", err)
	}
	var in statusLineInput
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("statusline: the input is not JSON: %w", err)
	}
	src := hold.Source{Transcript: in.TranscriptPath}
	if src.Transcript != "" {
		src.Transcript = filepath.Clean(src.Transcript)
		src.TaskDir = claudeTaskDir(so.Getenv, src.Transcript, in.SessionID)
	}
	format := statusline.ANSI
	if so.NoColor || so.Getenv("NO_COLOR") != "" {
		format = statusline.Plain
	}
	return statusPrint(so, src, format)
}

// statusLineWidth is the width Claude Code's terminal leaves the status
// line. Claude Code cuts a longer line at the terminal's edge (losing its
// end, the dropped count), so the line is fitted to the terminal: its
// width as Claude Code 2.1.332 passes it (COLUMNS; the command has no
// terminal of its own), else the controlling terminal's, less Claude
// Code's margins; DefaultWidth without either.
// statusLineMargin is what Claude Code 2.1.332 keeps around its status
// line: two columns before it, two after (a line of COLUMNS-4 cells shows
// whole at 60, 80 and 100 columns).
const statusLineMargin = 4

func statusLineWidth(getenv func(string) string) int {
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n >= 10 {
		return n - statusLineMargin
	}
	f, err := os.OpenFile("/dev/tty", os.O_RDONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return statusline.DefaultWidth
	}
	defer func() { _ = f.Close() }()
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col < 10 {
		return statusline.DefaultWidth
	}
	return int(ws.Col) - statusLineMargin
}

// claudeTaskDir is the Claude Code task list of a session whose transcript
// is <config>/projects/<dir>/<session>.jsonl: <config>/tasks/<list>, the
// list being CLAUDE_CODE_TASK_LIST_ID or the session id ("" when the
// transcript is not where Claude Code keeps them).
func claudeTaskDir(getenv func(string) string, transcript, session string) string {
	projects := filepath.Dir(filepath.Dir(transcript))
	if filepath.Base(projects) != "projects" {
		return ""
	}
	id := getenv("CLAUDE_CODE_TASK_LIST_ID")
	if id == "" {
		id = session
	}
	if id == "" {
		id = strings.TrimSuffix(filepath.Base(transcript), ".jsonl")
	}
	if offload.CheckID("task list id", id) != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(projects), "tasks", id)
}

func statusRun(so *StatusOptions) error {
	format := statusline.Plain
	if so.Format != "" {
		f, ok := statusline.ParseFormat(so.Format)
		if !ok {
			return &UsageError{fmt.Errorf("--format: choose plain, ansi or tmux, not %q", so.Format)}
		}
		format = f
	} else if isTerminal(so.Streams.Out) && !so.NoColor && so.Getenv("NO_COLOR") == "" {
		format = statusline.ANSI
	}
	var src hold.Source
	switch {
	case so.Claude != "":
		abs, err := filepath.Abs(so.Claude)
		if err != nil {
			return err
		}
		root, err := claudeRoot(so.Getenv)
		if err != nil {
			return err
		}
		t, err := newestTranscript(follow.ClaudeProjectDir(root, abs))
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		if t == "" {
			return nil // no session: nothing to show
		}
		src.Transcript = t
		src.TaskDir = claudeTaskDir(so.Getenv, t, "")
	case so.Transcript != "":
		abs, err := filepath.Abs(so.Transcript)
		if err != nil {
			return err
		}
		src.Transcript = abs
	case so.Session != "":
		if err := offload.CheckID("session id", so.Session); err != nil {
			return &UsageError{err}
		}
		dir := filepath.Join(so.OffloadDir, so.Session)
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		src.Transcript = filepath.Join(abs, "todos.jsonl")
		src.PlanName, src.PlanDir = "session "+so.Session, abs
	}
	return statusPrint(so, src, format)
}

// statusPrint prints the one line of src's plan (and the shared plan
// named), reading within statusBudget and waiting for no lock.
func statusPrint(so *StatusOptions, src hold.Source, format statusline.Format) error {
	if src.PlanDir == "" {
		name, err := planName(so.Options)
		if err != nil {
			return err
		}
		if name != "" {
			dir, err := planDir(so.Options, name)
			if err != nil {
				return err
			}
			src.PlanName, src.PlanDir = name, dir
		}
	}
	if src.Transcript == "" && src.PlanDir == "" {
		return nil
	}
	dir, err := stateDir(so.Options)
	if err != nil {
		return err
	}
	sess, err := hold.Open(hold.Store{Dir: dir}, src, statusBudget, false)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	v := sess.View()
	if err := sess.Close(); err != nil {
		fmt.Fprintf(so.Streams.ErrOut, "todo-shell: status: warning: %s\n", forTerminal(so.Streams.ErrOut, err.Error()))
	}
	line := statusline.Line(statusline.Plan{Items: v.Items, Dropped: v.Dropped}, format, so.Width)
	if line == "" {
		return nil
	}
	_, err = io.WriteString(so.Streams.Out, line+"\n")
	return err
}

// newestTranscript is the most recently written *.jsonl in dir ("" when
// there is none, or no dir).
func newestTranscript(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	best, bestTime := "", int64(0)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".jsonl") || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if t := info.ModTime().UnixNano(); best == "" || t > bestTime {
			best, bestTime = filepath.Join(dir, e.Name()), t
		}
	}
	return best, nil
}
