package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/internal/readgate"

	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
)

// sessionFlags are --resume and --continue, kept in Options.
//
// resolveSession turns them into the session id newApp uses: --resume ID
// names one that must exist; --continue takes the most recent in the
// offload directory. It reports whether the session must exist.
func resolveSession(o *Options) (mustExist bool, err error) {
	switch {
	case o.Resume != "" && o.Continue:
		return false, &UsageError{fmt.Errorf("--resume and --continue cannot be used together")}
	case (o.Resume != "" || o.Continue) && o.Session != "":
		return false, &UsageError{fmt.Errorf("--session cannot be used with --resume or --continue")}
	case o.Resume != "":
		o.Session = o.Resume
		return true, nil
	case o.Continue:
		id, passed, err := session.Latest(o.OffloadDir)
		if err != nil {
			return false, fmt.Errorf("--continue: %w", err)
		}
		for _, w := range passed {
			fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: --continue passed over a session: "+render.Sanitize(w))
		}
		if id == "" {
			return false, fmt.Errorf("--continue: no session in %s has a plan or a conversation to continue", o.OffloadDir)
		}
		o.Session = id
		return true, nil
	}
	return false, nil
}

// newSessionApp wires the engine and opens its session directory in mode,
// restoring a resumed session's list. Close the session when done: it
// writes what is pending and releases the lock.
func newSessionApp(o *Options, mode string) (*app, *session.Session, error) {
	mustExist, err := resolveSession(o)
	if err != nil {
		return nil, nil, err
	}
	a, err := newApp(o)
	if err != nil {
		return nil, nil, err
	}
	s, err := session.Open(a.offload.Dir, a.offload.Session, session.Options{
		Mode:      mode,
		Version:   version(),
		WorkDir:   a.runner.Dir(),
		MustExist: mustExist,
		Warn:      func(w string) { fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: "+render.Sanitize(w)) },
	})
	var busy *session.BusyError
	switch {
	case errors.Is(err, session.ErrNotFound):
		return nil, nil, fmt.Errorf("%w (see todo-shell sessions)", err)
	case err != nil && (mustExist || errors.As(err, &busy)):
		return nil, nil, err
	case err != nil:
		// A new session that cannot be kept on disk (a read-only offload
		// directory, say) still runs; offloaded results have their own
		// fallback.
		fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: the session is not saved: "+err.Error())
		if err := attachPlan(o, a, ""); err != nil {
			return nil, nil, err
		}
		return a, nil, nil
	}
	s.Attach(a.store)
	// The command of each offloaded result, for /offloads of a later run
	// (best effort: without it that run shows the file alone).
	a.shell.OnOffload = func(id, command string) { _ = s.NoteOffload(id, command) }
	if err := attachPlan(o, a, s.Path()); err != nil {
		closeSession(nil, s, o.Streams.ErrOut)
		return nil, nil, err
	}
	return a, s, nil
}

// closeSession closes the app's task plan and s (nil: none) and reports
// whether the session is saved, to come back to; a failure to save is
// said, not fatal.
func closeSession(a *app, s *session.Session, errOut io.Writer) bool {
	closeTasks(a, errOut)
	if s == nil {
		return false
	}
	gone := s.Present()
	if err := s.Close(); err != nil {
		fmt.Fprintln(errOut, "todo-shell: warning: session not saved: "+render.Sanitize(err.Error()))
		return false
	}
	if gone != nil {
		fmt.Fprintln(errOut, "todo-shell: warning: session not saved: "+render.Sanitize(gone.Error()))
		return false
	}
	return true
}

// resumeConversation reads a resumed session's transcript.jsonl back into
// the conversation; a new session has none.
func resumeConversation(o *Options, s *session.Session) ([]json.RawMessage, error) {
	if s == nil || !s.Resumed() {
		return nil, nil
	}
	f, _, err := readgate.Open(filepath.Join(s.Path(), session.TranscriptFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session %s: %s cannot be read: %s", s.ID(), render.Sanitize(filepath.Join(s.Path(), session.TranscriptFile)), readgate.Reason(err))
	}
	defer func() { _ = f.Close() }()
	msgs, err := agent.ReadTranscript(f, func(w string) { fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: "+render.Sanitize(w)) })
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", s.ID(), err)
	}
	return msgs, nil
}
