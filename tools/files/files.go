// Package files holds the file tools an agent reads and changes files
// with: Read, Write and Edit, with the input schemas Claude Code's tools
// have (file_path, offset, limit; content; old_string, new_string,
// replace_all). A file is read through internal/readgate's rules (no
// blocking open, regular files only, bounded memory); an existing file is
// written or edited only after it was Read in this session and has not
// changed since; writes are atomic (a temporary file renamed over the old
// one) and keep the file's mode; Edit keeps the file's line endings.
package files

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools"
)

// Tool names.
const (
	ReadName  = "Read"
	WriteName = "Write"
	EditName  = "Edit"
)

// Limits of Read.
const (
	DefaultLimit = 2000      // lines read when no limit is given
	MaxLineLen   = 2000      // characters of a line shown; the rest is cut with a marker
	binaryProbe  = 8000      // bytes looked at for a NUL
	maxFileSize  = 256 << 20 // a file larger than this is not read (nor hashed)
)

// State remembers what was read in a session, so that Write and Edit can
// refuse to change a file the model never saw, or one that changed since.
// It is safe for concurrent use.
type State struct {
	// Dir, when set, is the working directory the shell's Tab templates
	// start paths at.
	Dir func() string

	mu   sync.Mutex
	seen map[string]version
}

// version identifies a file's content as read.
type version struct {
	size int64
	mod  time.Time
	sum  [sha256.Size]byte
}

// NewState returns an empty State.
func NewState() *State { return &State{seen: map[string]version{}} }

func (s *State) remember(path string, v version) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[path] = v
}

func (s *State) lookup(path string) (version, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.seen[path]
	return v, ok
}

// Register adds Read, Write and Edit over state to reg.
func Register(reg *tools.Registry, state *State) error {
	for _, t := range []tools.Tool{readTool{state}, writeTool{state}, editTool{state}} {
		if err := reg.Add(t); err != nil {
			return err
		}
	}
	return nil
}

// open opens path for reading: final symlinks are followed (a file the
// person links to is theirs to read), then the target is opened without
// blocking (a FIFO cannot hang the call) and must be a regular file.
func open(path string) (*os.File, os.FileInfo, error) {
	if !filepath.IsAbs(path) {
		return nil, nil, fmt.Errorf("file_path must be an absolute path, got %q", path)
	}
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, nil, err
	}
	info, err := os.Stat(resolved)
	if err != nil {
		return nil, nil, err
	}
	if info.IsDir() {
		return nil, nil, fmt.Errorf("%s is a directory, not a file; list it with Bash (ls)", path)
	}
	// The reading gate: no-follow (the path is resolved already),
	// non-blocking, a regular file only.
	f, info, err := readgate.Open(resolved)
	if err != nil {
		return nil, nil, err
	}
	if info.Size() > maxFileSize {
		_ = f.Close()
		return nil, nil, fmt.Errorf("%s is %d bytes, more than the %d MiB Read handles; look at it with Bash (head, sed -n, grep)", path, info.Size(), maxFileSize>>20)
	}
	return f, info, nil
}

// versionOf reads f whole to identify its content.
func versionOf(f *os.File, info os.FileInfo) (version, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return version{}, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxFileSize+1)); err != nil {
		return version{}, err
	}
	v := version{size: info.Size(), mod: info.ModTime()}
	copy(v.sum[:], h.Sum(nil))
	return v, nil
}

// current returns the version on disk of path (resolved), or ok false when
// there is no such file.
func current(path string) (version, bool, error) {
	f, info, err := open(path)
	if errors.Is(err, os.ErrNotExist) {
		return version{}, false, nil
	}
	if err != nil {
		return version{}, false, err
	}
	defer func() { _ = f.Close() }()
	v, err := versionOf(f, info)
	return v, err == nil, err
}

// checkFresh refuses to change an existing file that was not Read in this
// session, or that changed since.
func (s *State) checkFresh(path string) (exists bool, err error) {
	cur, exists, err := current(path)
	if err != nil || !exists {
		return exists, err
	}
	seen, ok := s.lookup(key(path))
	if !ok {
		return true, fmt.Errorf("%s exists and has not been read in this session: Read it first, so that nothing in it is overwritten unseen", path)
	}
	if seen.sum != cur.sum || seen.size != cur.size {
		return true, fmt.Errorf("%s has changed since it was read (by a person, a command or a formatter): Read it again before changing it", path)
	}
	return true, nil
}

// key is the name a file is remembered by: its path with symlinks resolved
// where it exists.
func key(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}

// readInput is Read's input.
type readInput struct {
	FilePath string `json:"file_path"`
	Offset   *int   `json:"offset"`
	Limit    *int   `json:"limit"`
}

type readTool struct{ state *State }

func (readTool) Definition() tools.Definition {
	return tools.Definition{Name: ReadName, Description: readDescription, InputSchema: json.RawMessage(readSchema), ReadOnly: true}
}

func (t readTool) Call(_ context.Context, raw json.RawMessage) (tools.Result, error) {
	var in readInput
	if err := strictDecode(raw, &in); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	offset, limit := 1, DefaultLimit
	if in.Offset != nil {
		if *in.Offset < 1 {
			return tools.ErrorResult("offset is a line number, 1 or more"), nil
		}
		offset = *in.Offset
	}
	if in.Limit != nil {
		if *in.Limit < 1 {
			return tools.ErrorResult("limit is a number of lines, 1 or more"), nil
		}
		limit = *in.Limit
	}
	f, info, err := open(in.FilePath)
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("Cannot read %s: %v", in.FilePath, err)), nil
	}
	defer func() { _ = f.Close() }()
	v, err := versionOf(f, info)
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("Cannot read %s: %v", in.FilePath, err)), nil
	}
	t.state.remember(key(in.FilePath), v)
	if info.Size() == 0 {
		return tools.TextResult(fmt.Sprintf("(%s exists and is empty)", in.FilePath)), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	br := bufio.NewReaderSize(f, 64<<10)
	if head, _ := br.Peek(binaryProbe); bytes.IndexByte(head, 0) >= 0 {
		return tools.TextResult(fmt.Sprintf("(%s is a binary file of %d bytes; not shown)", in.FilePath, info.Size())), nil
	}
	text, shown, total, err := numbered(br, offset, limit)
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("Cannot read %s: %v", in.FilePath, err)), nil
	}
	if shown == 0 {
		return tools.TextResult(fmt.Sprintf("(%s has %d %s; offset %d is past the end)", in.FilePath, total, plural(total, "line", "lines"), offset)), nil
	}
	if offset+shown-1 < total {
		text += fmt.Sprintf("(lines %d-%d of %d; use offset and limit to read more)\n", offset, offset+shown-1, total)
	}
	return tools.TextResult(text), nil
}

// numbered returns lines offset.. (at most limit) as cat -n prints them
// (the number right-aligned in six columns, a tab, the line), each line cut
// at MaxLineLen characters with a marker, and the number of lines in the
// file. Memory is bounded by what is shown.
func numbered(r *bufio.Reader, offset, limit int) (text string, shown, total int, err error) {
	var b strings.Builder
	for {
		line, long, err := readLine(r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", 0, 0, err
		}
		total++
		if total < offset || shown >= limit {
			continue
		}
		shown++
		line = strings.TrimSuffix(line, "\r")
		if n := len([]rune(line)); n > MaxLineLen || long {
			line = string([]rune(line)[:min(n, MaxLineLen)]) + " … [line cut at 2000 characters]"
		}
		fmt.Fprintf(&b, "%6d\t%s\n", total, line)
	}
	return b.String(), shown, total, nil
}

// readLine reads one line without its newline, keeping at most 4×MaxLineLen
// bytes of it (long reports a line cut here).
func readLine(r *bufio.Reader) (line string, long bool, err error) {
	var buf []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			if err == io.EOF && (buf != nil || long) {
				return string(buf), long, nil
			}
			return "", false, err
		}
		if room := 4*MaxLineLen - len(buf); room > 0 {
			buf = append(buf, chunk[:min(len(chunk), room)]...)
			long = long || len(chunk) > room
		} else {
			long = true
		}
		if buf == nil {
			buf = []byte{}
		}
		if !isPrefix {
			return string(buf), long, nil
		}
	}
}

// writeInput is Write's input.
type writeInput struct {
	FilePath string  `json:"file_path"`
	Content  *string `json:"content"`
}

type writeTool struct{ state *State }

func (writeTool) Definition() tools.Definition {
	return tools.Definition{Name: WriteName, Description: writeDescription, InputSchema: json.RawMessage(writeSchema)}
}

func (t writeTool) Call(_ context.Context, raw json.RawMessage) (tools.Result, error) {
	var in writeInput
	if err := strictDecode(raw, &in); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	if in.Content == nil {
		return tools.ErrorResult("content is required (the whole new file)"), nil
	}
	if !filepath.IsAbs(in.FilePath) {
		return tools.ErrorResult(fmt.Sprintf("file_path must be an absolute path, got %q", in.FilePath)), nil
	}
	exists, err := t.state.checkFresh(in.FilePath)
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	v, err := writeAtomic(in.FilePath, []byte(*in.Content))
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("Cannot write %s: %v", in.FilePath, err)), nil
	}
	t.state.remember(key(in.FilePath), v)
	verb := "Created"
	if exists {
		verb = "Overwrote"
	}
	return tools.TextResult(fmt.Sprintf("%s %s (%d %s, %d %s)", verb, in.FilePath, len(*in.Content), plural(len(*in.Content), "byte", "bytes"), lineCount(*in.Content), plural(lineCount(*in.Content), "line", "lines"))), nil
}

// editInput is Edit's input.
type editInput struct {
	FilePath   string  `json:"file_path"`
	OldString  *string `json:"old_string"`
	NewString  *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
}

type editTool struct{ state *State }

func (editTool) Definition() tools.Definition {
	return tools.Definition{Name: EditName, Description: editDescription, InputSchema: json.RawMessage(editSchema)}
}

func (t editTool) Call(_ context.Context, raw json.RawMessage) (tools.Result, error) {
	var in editInput
	if err := strictDecode(raw, &in); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	if in.OldString == nil || in.NewString == nil {
		return tools.ErrorResult("old_string and new_string are required"), nil
	}
	if *in.OldString == *in.NewString {
		return tools.ErrorResult("old_string and new_string are the same: nothing would change"), nil
	}
	if *in.OldString == "" {
		return tools.ErrorResult("old_string is empty: to create a file use Write"), nil
	}
	exists, err := t.state.checkFresh(in.FilePath)
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	if !exists {
		return tools.ErrorResult(fmt.Sprintf("%s does not exist: to create it use Write", in.FilePath)), nil
	}
	f, _, err := open(in.FilePath)
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	_ = f.Close()
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	text := string(data)
	oldS, newS := *in.OldString, *in.NewString
	if strings.Contains(text, "\r\n") && !strings.Contains(oldS, "\r\n") {
		// The file's line endings are CRLF; the model writes LF.
		oldS = strings.ReplaceAll(oldS, "\n", "\r\n")
		newS = strings.ReplaceAll(strings.ReplaceAll(newS, "\r\n", "\n"), "\n", "\r\n")
	}
	n := strings.Count(text, oldS)
	switch {
	case n == 0:
		return tools.ErrorResult(fmt.Sprintf("old_string was not found in %s (it must match exactly, whitespace and indentation included)", in.FilePath)), nil
	case n > 1 && !in.ReplaceAll:
		return tools.ErrorResult(fmt.Sprintf("old_string occurs %d times in %s: include more of the surrounding text to make it unique, or set replace_all", n, in.FilePath)), nil
	}
	if in.ReplaceAll {
		text = strings.ReplaceAll(text, oldS, newS)
	} else {
		text = strings.Replace(text, oldS, newS, 1)
		n = 1
	}
	v, err := writeAtomic(in.FilePath, []byte(text))
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("Cannot write %s: %v", in.FilePath, err)), nil
	}
	t.state.remember(key(in.FilePath), v)
	return tools.TextResult(fmt.Sprintf("Edited %s: %d %s replaced", in.FilePath, n, plural(n, "occurrence", "occurrences"))), nil
}

// writeAtomic writes data to path through a temporary file in the same
// directory renamed over it: a reader sees the old file or the new one,
// never half of one. An existing file's mode is kept (a symlink's target is
// written, the link stays); a new file gets 0644 and its directories are
// made.
func writeAtomic(path string, data []byte) (version, error) {
	target := path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		target = r
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(target); err == nil {
		mode = info.Mode().Perm()
	} else if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return version{}, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return version{}, err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return version{}, err
	}
	info, err := os.Stat(target)
	if err != nil {
		return version{}, err
	}
	v := version{size: info.Size(), mod: info.ModTime(), sum: sha256.Sum256(data)}
	return v, nil
}

// strictDecode decodes a tool input, refusing unknown fields.
func strictDecode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid input: %w", err)
	}
	return nil
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// shellArg is the input Tab offers after a file tool's name in the shell:
// a template with the path started at the working directory.
func shellArg(s *State, template string) (insert, display string, ok bool) {
	dir := ""
	if s.Dir != nil {
		dir = s.Dir()
	}
	d, _ := json.Marshal(dir + "/")
	arg := fmt.Sprintf(template, d)
	return "'" + strings.ReplaceAll(arg, "'", `\u0027`) + "'", "a template", true
}

func (readTool) ShellFlags() []string  { return nil }
func (writeTool) ShellFlags() []string { return nil }
func (editTool) ShellFlags() []string  { return nil }

func (t readTool) ShellArg() (string, string, bool) {
	return shellArg(t.state, `{"file_path":%s}`)
}

func (t writeTool) ShellArg() (string, string, bool) {
	return shellArg(t.state, `{"file_path":%s,"content":""}`)
}

func (t editTool) ShellArg() (string, string, bool) {
	return shellArg(t.state, `{"file_path":%s,"old_string":"","new_string":""}`)
}
