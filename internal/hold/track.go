package hold

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/readgate"
)

// tailBytes is how many bytes before the offset the state's Tail hashes.
const tailBytes = 64

// tailHash hashes the bytes of f just before off.
func tailHash(f io.ReaderAt, off int64) string {
	if off <= 0 {
		return ""
	}
	n := min(off, tailBytes)
	b := make([]byte, n)
	if k, err := f.ReadAt(b, off-n); int64(k) != n && err != nil {
		return "!"
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// clone returns a copy of st that can change without changing st (the
// lists themselves are never changed in place, only replaced).
func (st *State) clone() *State {
	c := *st
	c.Losses = slices.Clone(st.Losses)
	return &c
}

// reader reads a transcript forward into a State.
type reader struct {
	st         *State
	p          plan.Parser
	format     plan.Format
	sidechains bool
	// mark is the state just before the first plan call that still waits
	// for its result (nil when none waits): the state to save, since
	// reading will go on from that call.
	mark *State
}

func newReader(st *State, sidechains bool) *reader {
	r := &reader{st: st, sidechains: sidechains}
	r.p.Sidechains = sidechains
	r.format = formatOf(st.Format)
	if st.Tasks != nil {
		r.p.SeedTasks(st.Tasks.version())
	}
	return r
}

// formatOf is the plan.Format named s.
func formatOf(s string) plan.Format {
	for f := plan.FormatUnknown; f <= plan.FormatTaskJournal; f++ {
		if f.String() == s && f != plan.FormatUnknown {
			return f
		}
	}
	return plan.FormatUnknown
}

// line reads one line.
func (r *reader) line(l line) error {
	waiting := r.p.Waiting()
	c := classify(r.format, l, waiting)
	if c&classUser != 0 {
		r.user(l)
	}
	if c&classPlan != 0 && !l.long {
		if !waiting {
			r.mark = r.st.clone()
			r.mark.Offset = l.start
		}
		_ = r.p.Feed(l.bytes, r.event) // a line that is not JSON is skipped
		if !r.p.Waiting() {
			r.mark = nil
		}
		if r.format == plan.FormatUnknown && r.p.Format() != plan.FormatUnknown {
			r.format = r.p.Format()
			r.st.Format = r.format.String()
		}
	}
	return nil
}

// user reads a line that may be the person's prompt or interrupt.
func (r *reader) user(l line) {
	var kind userKind
	var id string
	var when time.Time
	if l.long {
		// A prompt of more than a megabyte: its head says what it is.
		if types(l)&tUser != 0 && !bytes.Contains(l.bytes, isMetaTrue) {
			kind = userPrompt
		}
	} else {
		kind, id, when = readUser(l.bytes, r.sidechains)
	}
	st := r.st
	switch kind {
	case userPrompt:
		if id == "" {
			id = "@" + strconv.FormatInt(l.start, 10)
		}
		if id == st.Prompt.ID {
			return // the same prompt written again
		}
		st.Prompt = Prompt{ID: id, Offset: l.start, Time: when}
		st.Losses = nil
		// An interrupt holds until the plan changes, not until the next
		// prompt: "never mind, …" after one asks for something else.
	case userInterrupt:
		st.Interrupted = true
	}
}

// event takes a plan version.
func (r *reader) event(e plan.Event) {
	if e.Kind != plan.KindVersion {
		return
	}
	v := e.Version
	st := r.st
	prev := &st.Plan
	if v.Tasks {
		prev = &st.Tasks
	}
	st.Losses = append(st.Losses, lossesBetween((*prev).version(), v, v.Time)...)
	*prev = listOf(v)
	st.Interrupted = false
}

// read brings st (as loaded: fresh or not) up to date with the transcript
// at src. live is what the transcript says now; save is the state to keep
// (nil when it must not be kept: a read within the budget only).
func read(st *State, src Source, budget int64) (live, save *State, err error) {
	f, info, err := readgate.Open(src.Transcript)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = f.Close() }()
	size := info.Size()
	dev, ino := fileID(info)
	partial := false
	var from int64
	warm := st.Ino != 0 && st.Dev == dev && st.Ino == ino && st.Offset <= size && tailHash(f, st.Offset) == st.Tail
	if warm && (budget <= 0 || size-st.Offset <= budget) {
		st = st.clone()
		from = st.Offset
	} else {
		st = &State{V: stateVersion, Transcript: src.Transcript, Blocks: st.Blocks, Context: st.Context, Shared: st.Shared}
		from, partial, err = bootstrap(f, size, budget, src.Sidechains)
		if err != nil {
			return nil, nil, err
		}
		st.Start = from
	}
	st.Dev, st.Ino = dev, ino
	r := newReader(st, src.Sidechains)
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, nil, err
	}
	end, err := forEachLine(io.LimitReader(f, size-from), from, size-from, r.line)
	if err != nil {
		return nil, nil, err
	}
	st.Offset, st.Tail = end, tailHash(f, end)
	if partial {
		return st, nil, nil
	}
	save = st
	if r.mark != nil {
		save = r.mark
		save.Tail = tailHash(f, save.Offset)
	}
	return st, save, nil
}

// backLimit is how far back from its end a transcript never read before is
// searched for the last prompt and the plan before it; past that, it is
// read forward from its start (one pass, cheaper than going on backwards).
const backLimit = 8 << 20

// bootstrap finds where to start reading a transcript never read before.
// It reads it backwards from its end, up to backLimit (or budget, when
// smaller), until it has seen the person's last prompt and, before it, a
// plan call that sends the whole list (the plan in force when the prompt
// came): reading starts at that call. A task list is built call by call,
// so when the Task tools were used, or what was needed was not found, it
// starts at the beginning. With a budget that would not be enough, it
// starts as far back as the budget allows and partial is set.
func bootstrap(f *os.File, size, budget int64, sidechains bool) (anchor int64, partial bool, err error) {
	limit := int64(backLimit)
	if budget > 0 {
		limit = min(limit, budget)
	}
	anchor = size
	prompt, tasks, found := false, false, false
	hb := make([]byte, headBytes)
	err = readgate.LastLines(f, size, wholeLine, func(start int64, b []byte, long bool) (bool, error) {
		if size-start > limit {
			return true, nil
		}
		l := line{start: start, bytes: b, long: long}
		if long {
			n, _ := f.ReadAt(hb, start)
			l.bytes = hb[:n]
		}
		c := generic(l)
		if c&classUser != 0 && !prompt {
			kind := userPrompt
			if !long {
				kind, _, _ = readUser(l.bytes, sidechains)
			}
			if kind == userPrompt {
				prompt, anchor = true, start
			}
		}
		if c&classPlan != 0 {
			anchor = start
			if c&classWhole == 0 {
				tasks = true
				return true, nil
			}
			if prompt {
				found = true
				return true, nil
			}
		}
		if start == 0 {
			found = true // the whole file: all there is
		}
		return false, nil
	})
	switch {
	case err != nil || found:
	case budget > 0 && size > budget:
		// As far back as the budget goes.
		partial = true
		if !prompt && !tasks && anchor == size {
			anchor = size - budget
		}
		anchor = min(anchor, max(0, size-budget))
	default:
		anchor = 0
	}
	return anchor, partial, err
}
