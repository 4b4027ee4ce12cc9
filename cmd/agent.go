package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/internal/permission"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/repl"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// agentOptions are the agent command's own flags.
type agentOptions struct {
	*Options
	Prompt       string
	OutputFormat string
	Model        string
	MaxTurns     int
	MaxTokens    int64
	System       string
	IdleTimeout  time.Duration
	Permissions  permissionFlags
	MaxBudgetUSD float64
	CompactAt    float64
}

func newCmdAgent(o *Options) *cobra.Command {
	opts := &agentOptions{Options: o}
	cmd := &cobra.Command{
		Use: "agent",
		// Short and the first paragraph of Long name the tools from the
		// registry the agent runs, when help is shown (describeAgent).
		Short: "Let Claude drive the shell with todo-shell's tools",
		Long: agentToolsMark + `

Lines starting with ! run bash yourself; TodoWrite, TodoRead and /builtins work as
in the shell, and the model sees the list as you leave it. Ctrl+C interrupts the
current turn.

With -p it runs one prompt to the end and prints the final answer, for scripts.
The conversation is written to <offload-dir>/<session>/transcript.jsonl.

Needs ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL and ANTHROPIC_MODEL are honoured.`,
		Example: `  $ export ANTHROPIC_API_KEY=sk-ant-...
  $ todo-shell agent
  $ todo-shell agent -p "count the Go files here and list the three largest"
  $ todo-shell agent -p "what does this repo do?" --output-format json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.IdleTimeout <= 0 {
				return &UsageError{fmt.Errorf("--stream-idle-timeout must be more than 0, got %s", opts.IdleTimeout)}
			}
			if opts.OutputFormat != "text" && opts.OutputFormat != "json" {
				return &UsageError{fmt.Errorf("--output-format must be text or json, got %q", opts.OutputFormat)}
			}
			if cmd.Flags().Changed("output-format") && !cmd.Flags().Changed("print") {
				return &UsageError{fmt.Errorf("--output-format goes with -p")}
			}
			if !cmd.Flags().Changed("model") {
				if m := o.Getenv("ANTHROPIC_MODEL"); m != "" {
					opts.Model = m
				}
			}
			return agentRun(opts, cmd.Flags().Changed("print"))
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Prompt, "print", "p", "", "run this prompt to the end, print the final answer and exit")
	f.StringVar(&opts.OutputFormat, "output-format", "text", "with -p: text, or json for {result, session_id, num_turns, is_error, usage, total_cost_usd}")
	f.StringVar(&opts.Model, "model", string(agent.DefaultModel), "the Claude model (ANTHROPIC_MODEL is read too)")
	f.IntVar(&opts.MaxTurns, "max-turns", 50, "most requests for one prompt")
	f.Int64Var(&opts.MaxTokens, "max-tokens", 8192, "most tokens in one response")
	f.StringVar(&opts.System, "system", "", "text appended to the system prompt")
	f.DurationVar(&opts.IdleTimeout, "stream-idle-timeout", agent.DefaultStreamIdleTimeout, "give up on a response when nothing arrives for this long")
	f.Float64Var(&opts.CompactAt, "compact-at", agent.DefaultCompactAt, "compact the conversation once the context window is this full, before a prompt or between tool rounds (0.1-0.99; 1 never)")
	f.Float64Var(&opts.MaxBudgetUSD, "max-budget-usd", 0, "stop before the next request once the session has cost this many US dollars (0: no limit)")
	f.StringSliceVar(&opts.Permissions.Allowed, "allowedTools", nil, `rules that allow calls without asking: "Bash(git status)", "Bash(npm run test:*)", "Edit(src/**)"`)
	f.StringSliceVar(&opts.Permissions.Disallowed, "disallowedTools", nil, `rules that refuse calls (they win over allow rules): "Bash(rm:*)", "Read(~/.ssh/**)"`)
	f.StringVar(&opts.Permissions.Mode, "permission-mode", string(permission.ModeDefault), "default, acceptEdits (Write/Edit in the working directory without asking) or bypassPermissions")
	f.BoolVar(&opts.Permissions.SkipPermissions, "dangerously-skip-permissions", false, "run every tool call without asking (deny rules still hold)")
	return cmd
}

// agentToolsMark stands in the agent's Long for the paragraph naming its
// tools (describeAgent).
const agentToolsMark = "<the agent's tools>"

// agentTools are the tools agent mode gives the model, in the order it
// sees them — the registry every front end builds (toolset), with the file
// tools, as newApp builds it for agent — and of those, the ones a call of
// which never waits for a person's yes (tools.Definition.ReadOnly). They
// are written out rather than read from a registry built for each help:
// that marshals every tool's schema, 1.5 ms of a 12 ms --help.
// TestAgentHelpNamesTheToolsItRuns keeps them the registry's.
func agentTools() (names, never []string) {
	return []string{"TodoWrite", "TodoRead", "TaskCreate", "TaskGet", "TaskUpdate", "TaskList", "Bash", "Read", "Write", "Edit"},
		[]string{"TodoWrite", "TodoRead", "TaskCreate", "TaskGet", "TaskUpdate", "TaskList", "Read"}
}

// describeAgent fills in agent's Short and the paragraph of its Long that
// name its tools, from agentTools (whose test keeps them what the agent
// runs).
func describeAgent(c *cobra.Command) {
	if !strings.Contains(c.Long, agentToolsMark) {
		return // done already
	}
	names, never := agentTools()
	var asks []string
	for _, n := range names {
		if !slices.Contains(never, n) {
			asks = append(asks, n)
		}
	}
	does := []string{"plans (watch the panel)"}
	if slices.Contains(names, "Bash") {
		does = append(does, "runs any command")
	}
	var files []string
	for _, f := range [][2]string{{"Read", "reads"}, {"Write", "writes"}, {"Edit", "edits"}} {
		if slices.Contains(names, f[0]) {
			files = append(files, f[1])
		}
	}
	if len(files) > 0 {
		does = append(does, andList(files)+" files")
	}
	c.Short = fmt.Sprintf("Let Claude drive the shell with %d tools: %s", len(names), strings.Join(names, ", "))
	paragraph := fmt.Sprintf(`agent starts the shell in agent mode: a plain line is a prompt to Claude, which
works with %d tools: %s. It %s, then answers. A call of %s asks you first
unless a rule allows it (--allowedTools, --permission-mode,
--dangerously-skip-permissions; --disallowedTools refuses); %s never ask.`,
		len(names), strings.Join(names, ", "), strings.Join(does, ", "), andList(asks), andList(never))
	c.Long = strings.Replace(c.Long, agentToolsMark, paragraph, 1)
}

// andList is "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// errNoKey is said when ANTHROPIC_API_KEY is missing.
var errNoKey = errors.New("ANTHROPIC_API_KEY is not set: create a key at https://console.anthropic.com and run `export ANTHROPIC_API_KEY=<your key>` first")

func agentRun(o *agentOptions, printOnly bool) error {
	if err := o.checkLimits(); err != nil {
		return err
	}
	// First of all: the credentials leave the environment block, where
	// any command the agent runs could read them (/proc/$PPID/environ).
	creds, err := o.requireCredentials()
	if err != nil {
		return err
	}
	o.caller = "agent" // the owner of the tasks the agent starts
	o.redact = tools.NewRedactor(creds.Values()...)
	a, sess, err := newSessionApp(o.Options, session.ModeAgent)
	if err != nil {
		return err
	}
	defer func() {
		saved := closeSession(a, sess, o.Streams.ErrOut)
		if !printOnly { // the shell says how to come back; -p prints only the answer
			printNote(o.Streams.ErrOut, leftNote(o.Options, sess, saved, "todo-shell agent"))
		}
	}()
	transcript, err := openTranscript(a.offload.Dir, a.offload.Session)
	if err != nil {
		return err
	}
	var ag *agent.Agent
	defer func() { closeTranscript(o.Streams.ErrOut, transcript, ag) }()
	policy, err := newPolicy(o.Options, o.Permissions, a.executor)
	if err != nil {
		return err
	}
	history, err := resumeConversation(o.Options, sess)
	if err != nil {
		return err
	}
	perm, ask := askPerson(printOnly)
	ag, err = agent.New(o.agentConfig(a, creds, transcript, policy, ask, sess))
	if err != nil {
		return err
	}
	ag.Resume(history)
	if !printOnly {
		if !isTerminal(o.Streams.In) || !isTerminal(o.Streams.Out) {
			return &UsageError{fmt.Errorf("agent mode without -p needs a terminal; use -p \"<prompt>\" in scripts")}
		}
		printNote(o.Streams.ErrOut, resumedNote(sess, a.store.Snapshot(), a.tasks.Snapshot(), len(history), planOf(o.Options)))
		return runREPLWith(o.Options, a, ag, perm)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return printRun(ctx, o, a.offload.Session, ag)
}

// askPerson returns the questions of the interactive agent, which asks
// the person for permissions, and the function that asks them; none with
// -p (printOnly).
func askPerson(printOnly bool) (*repl.Permissions, func(context.Context, agent.Question) agent.Answer) {
	if printOnly {
		return nil, nil
	}
	perm := repl.NewPermissions()
	return perm, perm.Ask
}

// requireCredentials takes the credentials out of the environment (a
// problem reading them is a warning) and refuses to go on without any.
func (o *agentOptions) requireCredentials() (agent.Credentials, error) {
	creds, err := o.credentials()
	if err != nil {
		fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: "+err.Error())
	}
	if creds.Empty() {
		fmt.Fprintln(o.Streams.ErrOut, "todo-shell: "+errNoKey.Error())
		return creds, &ExitError{ExitFailed}
	}
	return creds, nil
}

// agentConfig is the agent's configuration: the options' model and
// limits, the app's tools and plan, and what the session keeps.
func (o *agentOptions) agentConfig(a *app, creds agent.Credentials, transcript io.Writer, policy *permission.Policy,
	ask func(context.Context, agent.Question) agent.Answer, sess *session.Session) agent.Config {
	return agent.Config{
		Client:     anthropic.NewClient(clientOptions(creds, o.Getenv)...),
		Model:      o.Model,
		MaxTokens:  o.MaxTokens,
		MaxTurns:   o.MaxTurns,
		System:     o.System,
		Tools:      a.executor,
		Transcript: transcript,
		OnTurn:     countTurn(sess),

		Permissions: policy,
		Ask:         ask,

		MaxBudgetUSD: o.MaxBudgetUSD,
		CompactAt:    o.CompactAt,
		// A compaction keeps the plan exactly as TodoRead returns it.
		Plan: func() string {
			return a.registry.Execute(context.Background(), "toolu_compaction_plan", todo.ReadName, json.RawMessage(`{}`)).Content
		},

		StreamIdleTimeout: o.IdleTimeout,
	}
}

// checkLimits refuses the numeric flags out of their range.
func (o *agentOptions) checkLimits() error {
	if o.MaxTurns < 1 || o.MaxTokens < 1 {
		return &UsageError{fmt.Errorf("--max-turns and --max-tokens must be 1 or more")}
	}
	if o.CompactAt < 0.1 || o.CompactAt > 1 {
		return &UsageError{fmt.Errorf("--compact-at must be from 0.1 to 1 (never), got %g", o.CompactAt)}
	}
	if o.MaxBudgetUSD < 0 {
		return &UsageError{fmt.Errorf("--max-budget-usd must be 0 (no limit) or more, got %g", o.MaxBudgetUSD)}
	}
	return nil
}

// clientOptions are the Anthropic client's options: the credentials and,
// when ANTHROPIC_BASE_URL is set, the endpoint.
func clientOptions(creds agent.Credentials, getenv func(string) string) []option.RequestOption {
	var opts []option.RequestOption
	if creds.APIKey != "" {
		opts = append(opts, option.WithAPIKey(creds.APIKey))
	}
	if creds.AuthToken != "" {
		opts = append(opts, option.WithAuthToken(creds.AuthToken))
	}
	if base := getenv("ANTHROPIC_BASE_URL"); base != "" {
		opts = append(opts, option.WithBaseURL(base))
	}
	return opts
}

// closeTranscript closes the transcript and reports the first failure to
// write it (ag's, when there is an agent, else the close's). The transcript
// is the session's record: a failure to write it is reported, though the
// conversation went on without it.
func closeTranscript(errOut io.Writer, transcript io.Closer, ag *agent.Agent) {
	err := transcript.Close()
	if ag != nil && ag.TranscriptErr() != nil {
		err = ag.TranscriptErr()
	}
	if err != nil {
		fmt.Fprintln(errOut, "todo-shell: transcript: "+err.Error())
	}
}

// countTurn counts each completed response into session.json's
// agent_turns; with no session, nothing. The count is informative: a failed
// write of it is not worth interrupting the screen for (session.json is
// written again at the next turn).
func countTurn(sess *session.Session) func(agent.TurnDone) {
	if sess == nil {
		return nil
	}
	return func(agent.TurnDone) { _ = sess.CountTurn() }
}

// printRun is `agent -p`: run one prompt and print the answer. The model's
// text, and errors that may quote it, are neutralised on each stream that is
// a terminal (an answer could otherwise set the title or the clipboard);
// redirected, they are written exactly. JSON output escapes control
// characters itself.
func printRun(ctx context.Context, o *agentOptions, sessionID string, ag *agent.Agent) error {
	out, errOut := o.Streams.Out, o.Streams.ErrOut
	emit := func(ev agent.Event) {
		if done, ok := ev.(agent.ToolDone); ok && done.Result.OffloadErr != nil {
			fmt.Fprintln(errOut, forTerminal(errOut, offload.Warning(done.Result.OffloadErr)))
		}
		if refused, ok := ev.(agent.PermissionRefused); ok {
			// No one to ask: the person sees why, in one line.
			fmt.Fprintln(errOut, forTerminal(errOut, "todo-shell: refused: "+refused.Message))
		}
		if !o.Trace {
			return
		}
		switch ev := ev.(type) {
		case agent.ToolCall:
			b, _ := json.Marshal(ev.Use)
			fmt.Fprintln(errOut, forTerminal(errOut, "→ "+string(b)))
		case agent.ToolDone:
			b, _ := json.Marshal(ev.Result)
			fmt.Fprintln(errOut, forTerminal(errOut, "← "+string(b)))
		}
	}
	res, runErr := ag.Run(ctx, o.Prompt, emit)
	if o.OutputFormat == "json" {
		out := struct {
			Result    string      `json:"result"`
			SessionID string      `json:"session_id"`
			NumTurns  int         `json:"num_turns"`
			IsError   bool        `json:"is_error"`
			Usage     agent.Usage `json:"usage"`
			CostUSD   float64     `json:"total_cost_usd"`
		}{res.Text, sessionID, res.NumTurns, runErr != nil, res.Usage, ag.CostUSD()}
		if runErr != nil {
			out.Result = runErr.Error()
		}
		b, _ := json.Marshal(out)
		fmt.Fprintln(o.Streams.Out, forTerminal(o.Streams.Out, string(b)))
	} else {
		if res.Text != "" {
			writeLine(out, forTerminal(out, res.Text))
		}
		if runErr != nil {
			fmt.Fprintln(errOut, forTerminal(errOut, "todo-shell: "+runErr.Error()))
		}
	}
	if runErr != nil {
		return &ExitError{ExitFailed}
	}
	return nil
}

// writeLine writes text and a newline without copying text (a response can
// be tens of megabytes; Fprintln would copy it).
func writeLine(w io.Writer, text string) {
	_, _ = io.WriteString(w, text) // standard output: nothing to do on failure
	_, _ = io.WriteString(w, "\n")
}

// openTranscript opens <dir>/<session>/transcript.jsonl for appending. The
// session directory must be safe (offload.SessionDir) and a symbolic link
// planted at the file's name is refused, never followed.
func openTranscript(dir, sessionID string) (io.WriteCloser, error) {
	sdir, err := offload.SessionDir(dir, sessionID)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	f, err := offload.OpenAppend(filepath.Join(sdir, "transcript.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return f, nil
}
