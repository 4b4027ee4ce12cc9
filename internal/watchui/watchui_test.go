package watchui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/testwait"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestViewKeepsToTheRows: the header and the panel keep to the rows of
// the alternate screen and, when the panel must collapse, take all of them
// (issue 29, item 3: no blank rows under a cut box), the item in progress
// shown.
func TestViewKeepsToTheRows(t *testing.T) {
	var items []todo.Item
	for i := range 30 {
		st := todo.StatusPending
		if i == 10 {
			st = todo.StatusInProgress
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Task %d", i), ActiveForm: fmt.Sprintf("Doing %d", i), Status: st})
	}
	for _, rows := range []int{10, 20, 30} {
		v := view{st: render.PlainStyles(), what: "sessions in x", width: 60, rows: rows,
			last: follow.Update{Source: "s1", Version: &plan.Version{N: 3, Todos: items}}}
		got := v.String()
		if n := strings.Count(got, "\n") + 1; n != rows {
			t.Errorf("%d rows: %d lines:\n%s", rows, n, got)
		}
		if !strings.HasPrefix(got, "watching s1 · v3 · q quits") || !strings.Contains(got, "● Doing 10") {
			t.Errorf("%d rows:\n%s", rows, got)
		}
	}
}

// TestViewKeepsTheNewestWarning: the header keeps the newest warning of
// the updates taken at once, neutralised.
func TestViewKeepsTheNewestWarning(t *testing.T) {
	updates := make(chan follow.Update, 2)
	updates <- follow.Update{Source: "s1", Warnings: []string{"second \x1b[2Jwarning"}}
	updates <- follow.Update{Source: "s1"}
	v := view{st: render.PlainStyles(), what: "sessions in x", width: 60, rows: 20}
	v.take(follow.Update{Source: "s1", Warnings: []string{"first"}}, updates)
	got := v.String()
	if !strings.Contains(got, " · second") || !strings.Contains(got, "warning · q quits\n") || strings.Contains(got, "\x1b") || !strings.Contains(got, WaitingText) {
		t.Fatalf("%q", got)
	}
}

// TestViewDropsAWarningThatNoLongerHolds: an update that says its source
// was read again after a failure takes the failure's warning out of the
// header.
func TestViewDropsAWarningThatNoLongerHolds(t *testing.T) {
	v := view{st: render.PlainStyles(), what: "x", width: 80, rows: 20}
	v.take(follow.Update{Source: "s1", Warnings: []string{"opencode.db damaged: malformed"}}, nil)
	if !strings.Contains(v.String(), "damaged") {
		t.Fatalf("%q", v.String())
	}
	v.take(follow.Update{Source: "s1", Recovered: true}, nil)
	if strings.Contains(v.String(), "damaged") {
		t.Fatalf("%q", v.String())
	}
}

// TestHeaderKeepsVersionAndQuit: a header too long for the screen keeps
// "· vN · q quits" whole and the start and end of the file's name, at 60
// and 80 columns (the view's width is one less), with a note or a warning
// cut at its end.
func TestHeaderKeepsVersionAndQuit(t *testing.T) {
	const (
		rollout = "rollout-2026-11-25T09-40-25-01a21213-5c1e-4d0b-9f6a-7be3c2d41f08.jsonl"
		claude  = "161c2a7e-3f4b-4c8d-9e0f-1a2b3c4d5e6f.jsonl"
		note    = "switched from 161c2a7e-3f4b-4c8d-9e0f-1a2b3c4d5e6f.jsonl to 2f0c9a1b-7d6e-4a5b-8c3d-9e8f7a6b5c4d.jsonl: it has ended"
	)
	for _, tc := range []struct {
		name        string
		u           follow.Update
		what, extra string
		width       int
		want        []string // in order
		exact       string   // when set, the whole header
	}{
		{"codex 80", follow.Update{Source: rollout, Version: &plan.Version{N: 12}}, "Codex sessions of /src/app", "", 79,
			nil, "watching rollout-2026-11-25T09-40-25…0b-9f6a-7be3c2d41f08.jsonl · v12 · q quits"},
		{"claude 60", follow.Update{Source: claude, Version: &plan.Version{N: 3}}, "Claude Code sessions of /src/app", "", 59,
			[]string{"watching 161c2a7e-3f", "…", "e6f.jsonl · v3 · q quits"}, ""},
		{"claude 80 whole", follow.Update{Source: claude, Version: &plan.Version{N: 3}}, "x", "", 79,
			nil, "watching " + claude + " · v3 · q quits"},
		{"switch 80", follow.Update{Source: "2f0c9a1b-7d6e-4a5b-8c3d-9e8f7a6b5c4d.jsonl", Version: &plan.Version{N: 4}, Note: note}, "x", "", 79,
			[]string{"watching 2f0c9a1b", "…", ".jsonl · v4 · switched from 161c", "… · q quits"}, ""},
		{"switch 60", follow.Update{Source: "2f0c9a1b-7d6e-4a5b-8c3d-9e8f7a6b5c4d.jsonl", Version: &plan.Version{N: 4}, Note: note}, "x", "", 59,
			[]string{"watching 2f0c", "…", "jsonl · v4 · switched from … · q quits"}, ""},
		{"warning 60", follow.Update{Source: claude, Version: &plan.Version{N: 3}}, "x", "s.jsonl line 9 skipped: longer than 16 MiB", 59,
			[]string{"watching 161c", "…", "jsonl · v3 · s.jsonl line 9… · q quits"}, ""},
		{"short names, long note 80", follow.Update{Source: "a", Version: &plan.Version{N: 1}, Note: "switched from b to a: b has ended; a is live, with a plan"}, "x", "", 79,
			[]string{"watching a · v1 · switched from b to a: b has ended; a is live", "… · q quits"}, ""},
		{"no session 60", follow.Update{}, "Claude Code sessions of /home/me/src/app (/home/me/.claude/projects/-home-me-src-app)", "", 59,
			[]string{"no session yet · Claude Code sess", "…", "src-app) · q quits"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := HeaderIn(tc.u, tc.what, tc.extra, tc.width)
			if w := ansi.StringWidth(got); w > tc.width {
				t.Errorf("%d cells wide, over %d: %q", w, tc.width, got)
			}
			if tc.exact != "" && got != tc.exact {
				t.Errorf("got  %q\nwant %q", got, tc.exact)
			}
			if tc.u.Version != nil && !strings.Contains(got, fmt.Sprintf(" · v%d · ", tc.u.Version.N)) || !strings.HasSuffix(got, " · q quits") {
				t.Errorf("version or q quits lost: %q", got)
			}
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (in order) %q in %q", w, got)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestDecodeAllKeys(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []allKey
	}{
		{"q", []allKey{allQuit}},
		{"\x1b[A\x1b[B", []allKey{allUp, allDown}},
		{"kj\r", []allKey{allUp, allDown, allOpen}},
		{"\x1b[D\x1b\x7f", []allKey{allBack, allBack, allBack}},
		{"x", nil},
	} {
		if got := decodeAllKeys([]byte(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestViewKeepsTheSwitchNote: the note of a switch stays in the header
// while the same session is shown, however many versions follow at once,
// and goes when another source is shown.
func TestViewKeepsTheSwitchNote(t *testing.T) {
	v1 := &plan.Version{N: 1, Todos: []todo.Item{{Content: "a", ActiveForm: "A", Status: todo.StatusInProgress}}}
	v2 := &plan.Version{N: 2, Todos: v1.Todos}
	v := view{st: render.PlainStyles(), what: "sessions in x", width: 120, rows: 20}
	steps := []struct {
		u    follow.Update
		want string // in the header; "" for no note
	}{
		{follow.Update{Source: "main1", Version: v1, Note: "switched from oneshot to main1: oneshot has ended"}, "switched from oneshot to main1"},
		{follow.Update{Source: "main1", Version: v2, New: []*plan.Version{v2}}, "switched from oneshot to main1"},
		{follow.Update{Source: "other", Version: v1}, ""},
	}
	for i, s := range steps {
		v.take(s.u, nil)
		head, _, _ := strings.Cut(v.String(), "\n")
		if s.want == "" && strings.Contains(head, "switched") || s.want != "" && !strings.Contains(head, s.want) {
			t.Fatalf("step %d: header %q, want %q", i, head, s.want)
		}
	}
}

// TestHostileSourceIsNeutralisedWhereDrawn: follow hands on a source's
// name, its switch note and its warnings as the files have them; the
// header on the screen, --once and the lines written when standard output
// is not a terminal neutralise every one of them.
func TestHostileSourceIsNeutralisedWhereDrawn(t *testing.T) {
	const evil = "s\x1b]0;owned\x07\x1b[2J\u202e.jsonl"
	items := []todo.Item{{Content: "a\x1b[31m", ActiveForm: "doing \x1b]52;c;AAAA\x07 a", Status: todo.StatusInProgress}}
	u := follow.Update{Source: evil, Version: &plan.Version{N: 1, Todos: items}, New: []*plan.Version{{N: 1, Todos: items}},
		Note: "switched from x to " + evil, Warnings: []string{evil + " line 9 skipped: longer than 16 MiB"}}

	v := view{st: render.PlainStyles(), what: "sessions in x", width: 80, rows: 20}
	v.take(u, nil)
	var out, errOut strings.Builder
	err := once(Options{Source: Source{Once: func() (follow.Update, error) { return u, nil }}, Out: &out, ErrOut: &errOut, NoColor: true})
	if err != nil {
		t.Fatal(err)
	}
	updates, errc := make(chan follow.Update, 1), make(chan error)
	updates <- u
	ctx, cancel := context.WithCancel(context.Background())
	var lineOut, lineErr syncBuilder
	done := make(chan error)
	go func() { done <- lines(ctx, Options{Out: &lineOut, ErrOut: &lineErr}, updates, errc) }()
	testwait.For(t, 5*time.Second, "the update's panel", func() bool { return lineOut.String() != "" })
	cancel()
	<-done
	for what, s := range map[string]string{"screen": v.String(), "once": out.String(), "once's warnings": errOut.String(),
		"lines": lineOut.String(), "lines' warnings": lineErr.String()} {
		if strings.ContainsAny(s, "\x1b\x07\u202e") {
			t.Errorf("%s: a raw control reaches it:\n%q", what, s)
		}
	}
	if !strings.Contains(v.String(), "␛") || !strings.Contains(errOut.String(), "␛") || !strings.Contains(lineErr.String(), "␛") {
		t.Errorf("the escapes are not shown:\n%q\n%q\n%q", v.String(), errOut.String(), lineErr.String())
	}
}

// syncBuilder is a strings.Builder safe for a writer and a reader at once.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
