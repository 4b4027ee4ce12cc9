package plan

import (
	"bufio"
	"errors"
	"io"
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Change is what one version changed from the one before, as lists of
// contents.
type Change struct {
	Added     []string // in this version, not in the last
	Started   []string // in progress now, not before
	Completed []string // completed now, not before
	Dropped   []string // gone from the list without being completed
}

// Diff returns the change from prev to cur, matching items by content.
func Diff(prev, cur []todo.Item) Change { return diff(prev, cur, nil, nil) }

// Changes returns the change from prev (nil before the first version) to
// cur. Items are matched by their keys when both versions have them (task
// ids, 1.x ids: a renamed task is the same task), by content otherwise.
func Changes(prev, cur *Version) Change {
	switch {
	case prev == nil:
		return diff(nil, cur.Todos, nil, nil)
	case prev.Keys != nil && cur.Keys != nil:
		return diff(prev.Todos, cur.Todos, prev.Keys, cur.Keys)
	}
	return diff(prev.Todos, cur.Todos, nil, nil)
}

func diff(prev, cur []todo.Item, pk, ck []string) Change {
	key := func(items []todo.Item, keys []string, i int) string {
		if keys != nil {
			return keys[i]
		}
		return items[i].Content
	}
	var c Change
	was := make(map[string]string, len(prev))
	for i, it := range prev {
		was[key(prev, pk, i)] = it.Status
	}
	now := make(map[string]bool, len(cur))
	for i, it := range cur {
		k := key(cur, ck, i)
		now[k] = true
		old, ok := was[k]
		if !ok {
			c.Added = append(c.Added, it.Content)
		}
		switch {
		case it.Status == todo.StatusInProgress && old != todo.StatusInProgress:
			c.Started = append(c.Started, it.Content)
		case it.Status == todo.StatusCompleted && old != todo.StatusCompleted:
			c.Completed = append(c.Completed, it.Content)
		}
	}
	seen := make(map[string]bool, len(prev))
	for i, it := range prev {
		k := key(prev, pk, i)
		if !now[k] && !seen[k] && it.Status != todo.StatusCompleted {
			c.Dropped = append(c.Dropped, it.Content)
		}
		seen[k] = true
	}
	return c
}

// Problems returns the rules of todo-shell's TodoWrite validator that the
// list breaks under limits (two in progress, blank content, too many items…),
// in the validator's own words; nil when it would be accepted.
func Problems(list []todo.Item, limits todo.Limits) []string {
	buf := todo.AppendList(make([]byte, 0, 64+len(list)*96), list)
	_, err := todo.Validate(buf, limits)
	var ve *todo.ValidationError
	if errors.As(err, &ve) {
		return ve.Messages
	}
	if err != nil {
		return []string{err.Error()}
	}
	return nil
}

// AppendRecord appends one replay JSON object for v (no newline):
// {"version","time","tool_use_id","todos","added","started","completed","dropped","problems"}.
func AppendRecord(dst []byte, v *Version, c Change, problems []string) []byte {
	dst = append(dst, `{"version":`...)
	dst = appendInt(dst, v.N)
	dst = append(dst, `,"time":`...)
	if v.Time.IsZero() {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '"')
		dst = v.Time.AppendFormat(dst, time.RFC3339Nano)
		dst = append(dst, '"')
	}
	dst = append(dst, `,"tool_use_id":`...)
	dst = tools.AppendJSONString(dst, v.ToolUseID)
	// {"todos":[...]} without its braces
	list := todo.AppendList(nil, v.Todos)
	dst = append(dst, ',')
	dst = append(dst, list[1:len(list)-1]...)
	for _, f := range []struct {
		name string
		list []string
	}{{"added", c.Added}, {"started", c.Started}, {"completed", c.Completed}, {"dropped", c.Dropped}, {"problems", problems}} {
		dst = append(dst, `,"`...)
		dst = append(dst, f.name...)
		dst = append(dst, `":[`...)
		for i, s := range f.list {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = tools.AppendJSONString(dst, s)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func appendInt(dst []byte, n int) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(dst, b[i:]...)
}

// Scan feeds every line of r to p, calling emit for each event and bad for
// each line p cannot read (nil bad stops at the first such line with its
// error), then flushes p. Memory stays bounded by the longest line.
func Scan(r io.Reader, p *Parser, emit func(Event), bad func(error)) error {
	br := bufio.NewReaderSize(r, 256<<10)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		line := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			line = long
		}
		if len(line) > 0 {
			if ferr := p.Feed(line, emit); ferr != nil {
				if bad == nil {
					return ferr
				}
				bad(ferr)
			}
		}
		long = long[:0]
		if cap(long) > 4<<20 {
			long = nil // do not keep one huge line's buffer
		}
		if err == io.EOF {
			p.Flush(emit)
			return nil
		}
		if err != nil {
			return err
		}
	}
}
