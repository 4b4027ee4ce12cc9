package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/hold"
	"github.com/todo-shell/todo-shell/internal/hook"
	"github.com/todo-shell/todo-shell/repl/history"
)

// EnvMaxBlocks caps the stops the hook holds in one prompt when
// --max-blocks is not given.
const EnvMaxBlocks = "TODO_SHELL_HOOK_MAX_BLOCKS"

// HookOptions are the flags of `todo-shell hook`.
type HookOptions struct {
	*Options
	MaxBlocks    int
	maxGiven     bool
	Owner        string
	Print        bool
	Install      bool
	Agent        string
	SettingsPath string
	NoStatusLine bool
}

const hookLong = `Hook answers the hooks of Claude Code (and of Codex and Gemini CLI, which have the same
kind): it reads the hook's JSON on standard input and answers in the agent's format.

  Stop, SubagentStop (Gemini CLI: AfterAgent)
      The stop is held while the session's plan has items unfinished, or items that left it
      unfinished since the person's last prompt (removed, reworded into another item,
      reworded and marked completed in one change). The reason names each one and what
      happened to it. A stop is held at most --max-blocks times in one prompt, never after
      the person interrupted (unless the plan changed since), and never when another hook
      already made the agent go on (stop_hook_active) and this one has not.
  SessionStart, UserPromptSubmit (Gemini CLI: BeforeAgent)
      With a shared plan named (--plan or TODO_SHELL_PLAN), its tasks are added as context:
      at the start of the session, and with a prompt when the plan changed since.

The plan is the session's TodoWrite list or its Task tools' list, read from the transcript
the agent names, and the shared plan's tasks this agent owns or created. The transcript
is read from where the last call stopped (the state is kept per transcript in
$XDG_STATE_HOME/todo-shell/hooks/).

--print shows the settings that register the hook (and the status line, for Claude Code);
--install merges them into .claude/settings.local.json (Codex: .codex/hooks.json, Gemini
CLI: .gemini/settings.json), keeping everything else in the file.

An error (bad input, bad usage) exits 1 with the message on standard error, never 2: to
the agents a hook's 2 holds the stop, and a hook that cannot answer lets the agent go on.`

const hookExample = `  $ todo-shell hook --print
  $ todo-shell hook --install
  $ todo-shell hook --install --plan build
  $ todo-shell hook --print --agent codex
  $ echo '{"hook_event_name":"Stop","transcript_path":"/tmp/t.jsonl"}' | todo-shell hook`

func newCmdHook(o *Options) *cobra.Command {
	ho := &HookOptions{Options: o}
	cmd := &cobra.Command{
		Use:     "hook",
		Short:   "Answer Claude Code's hooks: hold a stop while the plan is unfinished",
		Long:    hookLong,
		Example: hookExample,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ho.maxGiven = cmd.Flags().Changed("max-blocks")
			if ho.Print && ho.Install {
				return &UsageError{fmt.Errorf("--print and --install cannot be used together")}
			}
			if ho.Print || ho.Install {
				if ho.MaxBlocks < 0 {
					return &UsageError{fmt.Errorf("--max-blocks must be 0 or more, got %d", ho.MaxBlocks)}
				}
				return hookSettingsRun(ho)
			}
			return notADecision(hookRun(ho))
		},
	}
	// The agent runs the command its settings name: a flag it cannot
	// parse must not be taken for a held stop either.
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return notADecision(&UsageError{err}) })
	f := cmd.Flags()
	f.IntVar(&ho.MaxBlocks, "max-blocks", hold.DefaultMaxBlocks, "hold a stop at most N times in one prompt; 0 never holds (overrides "+EnvMaxBlocks+")")
	f.StringVar(&ho.Owner, "owner", "", "who the agent is in the shared plan (default: the name its MCP client gives: claude-code, codex-mcp-client, gemini-cli-mcp-client)")
	f.BoolVar(&ho.Print, "print", false, "print the settings that register the hook, and do nothing else")
	f.BoolVar(&ho.Install, "install", false, "merge those settings into the project's settings file")
	f.StringVar(&ho.Agent, "agent", "claude", "the agent --print and --install are for: claude, codex or gemini")
	f.StringVar(&ho.SettingsPath, "settings", "", "the settings file --install writes (default: .claude/settings.local.json, .codex/hooks.json or .gemini/settings.json)")
	f.BoolVar(&ho.NoStatusLine, "no-statusline", false, "leave Claude Code's statusLine out of --print and --install")
	return cmd
}

// stateDir is where the hook and the status line keep their state.
func stateDir(o *Options) (string, error) {
	base := history.DefaultDir(o.Getenv)
	if base == "" {
		return "", fmt.Errorf("no state directory (set XDG_STATE_HOME or HOME)")
	}
	return filepath.Join(base, hold.StateDirName), nil
}

// maxBlocks is --max-blocks, else TODO_SHELL_HOOK_MAX_BLOCKS, else 2.
func maxBlocks(ho *HookOptions) (int, error) {
	if ho.maxGiven {
		return ho.MaxBlocks, nil
	}
	if s := ho.Getenv(EnvMaxBlocks); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, &UsageError{fmt.Errorf("%s must be a whole number, 0 or more, got %q", EnvMaxBlocks, s)}
		}
		return n, nil
	}
	return ho.MaxBlocks, nil
}

// defaultOwner is the name the agent's MCP client gives (the owner
// todo-shell mcp records for its Task calls).
func defaultOwner(a hook.Agent) string {
	switch a {
	case hook.Codex:
		return "codex-mcp-client"
	case hook.Gemini:
		return "gemini-cli-mcp-client"
	}
	return "claude-code"
}

// pruneAge is how long a transcript's state is kept once not used.
const pruneAge = 30 * 24 * time.Hour

// hookFailure is an error of `todo-shell hook`: it exits 1, never 2. To
// Claude Code, Codex and Gemini CLI a hook's exit status 2 is a decision
// (the stop is held, standard error is the reason), so a hook that cannot
// answer, even for bad usage, must fail in the way that lets the agent go
// on (exit 1: the person sees the message, the stop goes through).
type hookFailure struct{ error }

func (e hookFailure) Unwrap() error { return e.error }

// notADecision makes err, if any, a hookFailure.
func notADecision(err error) error {
	if err == nil {
		return nil
	}
	return hookFailure{err}
}

// hookRun answers one hook call. A panic is an error like any other: Go
// ends a panicking program with status 2, which the agent would take for
// a held stop.
func hookRun(ho *HookOptions) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("hook: internal error: %v", p)
		}
	}()
	if ho.MaxBlocks < 0 {
		return &UsageError{fmt.Errorf("--max-blocks must be 0 or more, got %d", ho.MaxBlocks)}
	}
	limit, err := maxBlocks(ho)
	if err != nil {
		return err
	}
	in, err := readHookInput(ho.Streams.In)
	if err != nil {
		return err
	}
	out := ho.Streams.Out
	kind := in.Kind()
	if kind == hook.KindOther {
		_, err := out.Write(hook.Allow(in, ""))
		return err
	}
	src, err := hookSource(ho, in)
	if err != nil {
		return err
	}
	dir, err := stateDir(ho.Options)
	if err != nil {
		return fmt.Errorf("hook: %w", err)
	}
	store := hold.Store{Dir: dir}
	if src.Transcript == "" && src.PlanDir == "" {
		_, err := out.Write(hook.Allow(in, ""))
		return err
	}
	sess, err := hold.Open(store, src, 0, true)
	if err != nil {
		return fmt.Errorf("hook: %w", err)
	}
	if kind == hook.KindSessionStart {
		store.Prune(pruneAge, time.Now())
	}
	answer := hookAnswer(sess, in, limit)
	if err := sess.Close(); err != nil {
		fmt.Fprintf(ho.Streams.ErrOut, "todo-shell: hook: warning: %s\n", forTerminal(ho.Streams.ErrOut, err.Error()))
	}
	_, err = out.Write(answer)
	return err
}

// readHookInput reads and parses the hook's JSON, at most hook.MaxInput
// bytes of it.
func readHookInput(r io.Reader) (hook.Input, error) {
	b, err := io.ReadAll(io.LimitReader(r, hook.MaxInput+1))
	if err != nil {
		return hook.Input{}, fmt.Errorf("hook: read the input: %w", err)
	}
	if len(b) > hook.MaxInput {
		return hook.Input{}, fmt.Errorf("hook: the input is more than %d bytes", hook.MaxInput)
	}
	in, err := hook.ParseInput(b)
	if err != nil {
		return hook.Input{}, fmt.Errorf("hook: %w", err)
	}
	return in, nil
}

// hookAnswer is the answer to in, given the session's plan: a stop held
// or let through, the shared plan as context, or nothing.
func hookAnswer(sess *hold.Session, in hook.Input, limit int) []byte {
	switch kind := in.Kind(); kind {
	case hook.KindStop, hook.KindSubagentStop:
		v := sess.Stop(hold.StopInput{PromptID: in.Prompt(), Active: in.StopHookActive, MaxBlocks: limit})
		if v.Block {
			return hook.Block(in, hook.Reason(v), "")
		}
		return hook.Allow(in, hook.Note(v))
	case hook.KindSessionStart, hook.KindPrompt:
		c, changed := sess.Context()
		if c != nil && (changed || kind == hook.KindSessionStart) {
			sess.GaveContext()
			return hook.Context(in, hook.SharedContext(c.Name, c.State))
		}
	}
	return hook.Allow(in, "")
}

// hookSource is what the hook reads for in: the transcript (a
// sub-agent's own for SubagentStop), the shared plan, the owner.
func hookSource(ho *HookOptions, in hook.Input) (hold.Source, error) {
	src := hold.Source{Transcript: in.TranscriptPath, Owner: ho.Owner}
	if in.Kind() == hook.KindSubagentStop && in.AgentTranscriptPath != "" {
		src.Transcript, src.Sidechains = in.AgentTranscriptPath, true
	}
	if src.Transcript != "" && !filepath.IsAbs(src.Transcript) && in.Cwd != "" {
		src.Transcript = filepath.Join(in.Cwd, src.Transcript)
	}
	if src.Transcript != "" {
		src.Transcript = filepath.Clean(src.Transcript)
	}
	if src.Owner == "" {
		src.Owner = defaultOwner(in.Agent)
	}
	name, err := planName(ho.Options)
	if err != nil {
		return src, err
	}
	if name != "" {
		dir, err := planDir(ho.Options, name)
		if err != nil {
			return src, err
		}
		src.PlanName, src.PlanDir = name, dir
	}
	return src, nil
}

// hookWant is what hook --print and --install put in the settings: the
// hook command (this executable, with --plan and --max-blocks when given)
// and, for Claude Code, the status line.
func hookWant(ho *HookOptions) (hook.Want, error) {
	var w hook.Want
	switch ho.Agent {
	case "claude":
		w.Agent = hook.Claude
	case "codex":
		w.Agent = hook.Codex
	case "gemini":
		w.Agent = hook.Gemini
	default:
		return w, &UsageError{fmt.Errorf("--agent: choose claude, codex or gemini, not %q", ho.Agent)}
	}
	exe, err := os.Executable()
	if err != nil {
		return w, fmt.Errorf("hook: where is todo-shell: %w", err)
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	name, err := planName(ho.Options)
	if err != nil {
		return w, err
	}
	w.Hook = hook.Quote(exe) + " hook"
	if name != "" {
		w.Hook += " --plan " + name
	}
	if ho.maxGiven {
		w.Hook += " --max-blocks " + strconv.Itoa(ho.MaxBlocks)
	}
	if w.Agent == hook.Claude && !ho.NoStatusLine {
		w.StatusLine = hook.Quote(exe) + " statusline"
		if name != "" {
			w.StatusLine += " --plan " + name
		}
	}
	return w, nil
}

// hookSettingsRun is hook --print and --install.
func hookSettingsRun(ho *HookOptions) error {
	w, err := hookWant(ho)
	if err != nil {
		return err
	}
	if ho.Print {
		_, err := ho.Streams.Out.Write(hook.Settings(w))
		return err
	}
	path := ho.SettingsPath
	if path == "" {
		path = hook.SettingsFile(w.Agent)
	}
	changed, notes, err := hook.Install(path, w)
	if err != nil {
		return fmt.Errorf("hook --install: %w", err)
	}
	for _, n := range notes {
		fmt.Fprintf(ho.Streams.ErrOut, "todo-shell: hook --install: %s\n", forTerminal(ho.Streams.ErrOut, n))
	}
	if changed {
		fmt.Fprintf(ho.Streams.Out, "%s: the %s hooks are in place\n", forTerminal(ho.Streams.Out, path), w.Agent)
	} else {
		fmt.Fprintf(ho.Streams.Out, "%s: already holds the %s hooks; nothing changed\n", forTerminal(ho.Streams.Out, path), w.Agent)
	}
	return nil
}
