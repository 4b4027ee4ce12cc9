package bash

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// Name is the Bash tool's name.
const Name = "Bash"

//go:embed bash.md
var description string

// Definition returns the Bash tool's definition.
func Definition() tools.Definition {
	return tools.Definition{
		Name:        Name,
		Description: description,
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"command":{"type":"string","minLength":1,"description":"The command to run with bash"},` +
			`"timeout_ms":{"type":"integer","minimum":1,"maximum":600000,"description":"How long the command may run, in milliseconds (at most 600000, 10 minutes)"}},` +
			`"required":["command"],"additionalProperties":false}`),
	}
}

// MaxTimeoutMS is the longest timeout_ms a command may ask for: ten
// minutes, as Claude Code's Bash tool allows.
const MaxTimeoutMS = 600000

// Input is the Bash tool's input.
type Input struct {
	Command   string        `json:"command"`
	TimeoutMS *Milliseconds `json:"timeout_ms,omitempty"`
}

// Milliseconds is timeout_ms as sent: a JSON number, kept as its text so
// that a value too large for any integer type is still reported as sent.
type Milliseconds string

// UnmarshalJSON takes a JSON number only.
func (m *Milliseconds) UnmarshalJSON(b []byte) error {
	var n json.Number
	if len(b) == 0 || b[0] == '"' || json.Unmarshal(b, &n) != nil {
		return fmt.Errorf("'timeout_ms' must be a number of milliseconds, got %s", b)
	}
	*m = Milliseconds(n)
	return nil
}

// Int64 returns the value when it is a whole number that fits.
func (m Milliseconds) Int64() (int64, error) { return strconv.ParseInt(string(m), 10, 64) }

// String returns the value as sent.
func (m Milliseconds) String() string { return string(m) }

// Timeout returns the timeout asked for, or def when none was.
func (in Input) Timeout(def time.Duration) time.Duration {
	if in.TimeoutMS == nil {
		return def
	}
	ms, _ := in.TimeoutMS.Int64() // checked by ParseInput
	return time.Duration(ms) * time.Millisecond
}

// ParseInput decodes and checks a Bash input.
func ParseInput(raw json.RawMessage) (Input, error) {
	var in Input
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf("invalid Bash input: %w", err)
	}
	if in.Command == "" {
		return in, fmt.Errorf("'command' is required and cannot be empty")
	}
	if in.TimeoutMS != nil {
		ms, err := in.TimeoutMS.Int64()
		if err != nil || ms < 1 || ms > MaxTimeoutMS {
			return in, fmt.Errorf("'timeout_ms' must be a whole number of milliseconds from 1 to %d (10 minutes), got %s", MaxTimeoutMS, in.TimeoutMS.String())
		}
	}
	return in, nil
}

// Call runs one command on the tool's Runner. Output streams live to the
// context's output writer (tools.WithOutput) and through a spool under the
// tool's Offload policy, so output of any size runs in bounded memory: past
// the threshold the content is the offload pointer. A command that fails is
// an is_error result whose content ends with its trailer line. The result's
// Meta is the command's Outcome.
func (t Tool) Call(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	in, err := ParseInput(raw)
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	timeout := in.Timeout(t.Timeout)
	spool, err := offload.NewSpool(t.Offload, tools.ToolUseIDFrom(ctx))
	if err != nil {
		// An id that cannot name a file: keep the output in memory.
		spool, _ = offload.NewSpool(offload.Config{}, "")
	}
	// The result gets carriage returns applied, as a terminal shows
	// them, and escape sequences removed (a model reads plain text);
	// the live view gets the raw stream and does both itself.
	cr := &CRWriter{W: spool}
	var out io.Writer = &StripWriter{W: cr}
	if live := tools.OutputFrom(ctx); live != nil {
		out = io.MultiWriter(out, live)
	}
	// Secrets are masked before the output reaches the spool (and its
	// file) or the screen.
	red := t.Redact.Writer(out)
	outcome, err := t.Runner.Run(ctx, in.Command, timeout, red)
	_ = red.Flush() // a failed write is the spool's to report
	_ = cr.Flush()  // the spool never fails a write: it records failures in sum.Err
	if err != nil {
		return tools.Result{}, err
	}
	if t := outcome.Trailer(); t != "" {
		sep := ""
		if spool.Len() > 0 && !spool.EndsWithNewline() {
			sep = "\n"
		}
		_, _ = io.WriteString(spool, sep+t+"\n") // as above: see sum.Err
	}
	sum := spool.Close()
	res := tools.Result{IsError: outcome.Failed(), Meta: outcome, OffloadErr: sum.Err}
	if sum.Offloaded {
		res.Content = offload.Pointer(sum.File)
		res.Offloaded = &tools.Offloaded{Path: sum.File, Preview: sum.Preview, Lines: sum.Lines, Bytes: sum.Bytes}
		return res, nil
	}
	res.Content = sum.Text
	return res, nil
}
