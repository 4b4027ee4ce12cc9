package repl

// A session's offloaded results, listed for /offloads; the one /open shows.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/render"
)

// offloadEntry is one offloaded file.
type offloadEntry struct {
	Path    string
	Size    int64
	Lines   int
	ModTime time.Time
	Command string // the line that made it; "" when not known
	// Earlier is set when Command was recorded by an earlier run of the
	// session (offloads.jsonl), not this one.
	Earlier bool
}

// notesFile is where a session records the command of each offloaded
// result (session.OffloadsFile).
const notesFile = "offloads.jsonl"

// listOffloads returns the .md files in dir, oldest first, without their line
// counts (see countOffloadLines). commands maps a file's base name without .md
// (its tool_use id) to the line that made it in this run; the commands of
// earlier runs come from the session's offloads.jsonl (read through the
// reading gate; a bad line is skipped).
func listOffloads(dir string, commands map[string]string) ([]offloadEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	earlier := offloadNotes(filepath.Join(dir, notesFile))
	var out []offloadEntry
	for _, de := range des {
		if de.IsDir() || !strings.HasSuffix(de.Name(), ".md") {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		p := filepath.Join(dir, de.Name())
		id := strings.TrimSuffix(de.Name(), ".md")
		e := offloadEntry{Path: p, Size: info.Size(), ModTime: info.ModTime(), Command: commands[id]}
		if e.Command == "" {
			e.Command, e.Earlier = earlier[id], earlier[id] != ""
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ModTime.Before(out[j].ModTime) })
	return out, nil
}

// offloadNotes reads a session's offloads.jsonl: the command of each tool_use id.
func offloadNotes(path string) map[string]string {
	f, _, err := readgate.Open(path)
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }() // only read
	out := map[string]string{}
	_, _ = readgate.ScanLines(f, readgate.SmallFile, func(_ int, line []byte) error {
		var n struct {
			ToolUseID string `json:"tool_use_id"`
			Command   string `json:"command"`
		}
		if json.Unmarshal(line, &n) == nil && n.ToolUseID != "" {
			out[n.ToolUseID] = n.Command
		}
		return nil
	})
	return out
}

// countOffloadLines fills in the entries' line counts, reading each file.
func countOffloadLines(entries []offloadEntry) {
	for i := range entries {
		entries[i].Lines = countOffloadFileLines(entries[i].Path)
	}
}

// countOffloadFileLines counts the lines of a file (a last line without a newline
// counts).
func countOffloadFileLines(path string) int {
	f, _, err := readgate.Open(path) // a planted link or FIFO is not read
	if err != nil {
		return 0
	}
	defer func() { _ = f.Close() }() // only read
	buf := make([]byte, 64<<10)
	n, last := 0, byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if err == io.EOF || err != nil {
			break
		}
	}
	if last != '\n' {
		n++
	}
	return n
}

// formatOffloads lays entries out as a numbered table for /offloads.
func formatOffloads(entries []offloadEntry) string {
	if len(entries) == 0 {
		return "No offloaded results in this session."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%3s  %8s  %8s  %s\n", "#", "size", "lines", "command → file")
	for i, e := range entries {
		cmd := strings.ReplaceAll(e.Command, "\n", " ")
		most := 60
		if e.Earlier {
			most -= len([]rune(earlierMark))
		}
		if r := []rune(cmd); len(r) > most {
			cmd = string(r[:most-1]) + "…"
		}
		switch {
		case e.Command == "":
			cmd = "(from an earlier run)"
		case e.Earlier:
			cmd += earlierMark
		}
		fmt.Fprintf(&b, "%3d  %8s  %8d  %s\n%3s  %8s  %8s  %s\n", i+1, render.HumanSize(e.Size), e.Lines, cmd, "", "", "", "→ "+e.Path)
	}
	b.WriteString("Open one with /open N (the last with /open).")
	return b.String()
}

// earlierMark follows a command recorded by an earlier run of the session.
const earlierMark = "  ↺ earlier run"

// pickOffload returns the file /open ARG names: the last with no argument, else
// the Nth (from 1) of listOffloads's order.
func pickOffload(entries []offloadEntry, arg string) (offloadEntry, error) {
	if len(entries) == 0 {
		return offloadEntry{}, fmt.Errorf("no offloaded results in this session")
	}
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return entries[len(entries)-1], nil
	}
	var n int
	if _, err := fmt.Sscanf(arg, "%d", &n); err != nil || n < 1 || n > len(entries) || fmt.Sprint(n) != arg {
		return offloadEntry{}, fmt.Errorf("usage: /open [N] with N from 1 to %d", len(entries))
	}
	return entries[n-1], nil
}

// pagerCommand is the shell command that shows path in the pager: $PAGER,
// or less -R.
func pagerCommand(pager, path string) string {
	if strings.TrimSpace(pager) == "" || pager == "cat" {
		pager = "less -R"
	}
	return pager + " " + bashline.Quote(path)
}
