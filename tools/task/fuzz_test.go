package task

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// FuzzJournal reads any bytes as a plan's journal (tasks.jsonl; the seeds
// are journals the tools wrote): read whole, and read in two goes as the
// file grows (cut at any byte, the second read going on from where the
// first stopped), the versions are the same, in order, numbered upwards;
// a writer opening the directory keeps every whole line and cuts only a
// last line with no newline, and its next version follows the last.
func FuzzJournal(f *testing.F) {
	dir := f.TempDir()
	s, err := OpenStore(dir, nil)
	if err != nil {
		f.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := Register(reg, s, Options{Limits: todo.DefaultLimits()}); err != nil {
		f.Fatal(err)
	}
	for _, in := range []string{
		`{"subject":"Write the parser","description":"d"}`,
		`{"subject":"Test it","description":"d"}`,
		`{"taskId":"1","status":"in_progress","owner":"a"}`,
		`{"taskId":"2","addBlockedBy":["1"]}`,
		`{"taskId":"1","status":"completed"}`,
	} {
		name := CreateName
		if strings.Contains(in, "taskId") {
			name = UpdateName
		}
		if r := reg.Execute(context.Background(), "toolu_seed", name, json.RawMessage(in)); r.IsError {
			f.Fatal(r.Content)
		}
	}
	_ = s.Close()
	good, _ := os.ReadFile(filepath.Join(dir, JournalFile))
	f.Add(good, uint16(len(good)/2))
	f.Add(append(good[:len(good)-5:len(good)-5], `{"vers`...), uint16(10))
	f.Add([]byte("{}\n\n{\"version\":1}\n"), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		var whole []uint64
		st, err := ReadJournal(bytes.NewReader(data), func(s State, r Record) { whole = append(whole, r.Version) })
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(whole); i++ {
			if whole[i] == 0 {
				t.Fatalf("version 0 applied: %v", whole)
			}
		}
		// In two goes, as a reader that follows the file sees it.
		c := min(int(cut), len(data))
		var twice []uint64
		st2 := NewState()
		emit := func(s State, r Record) { twice = append(twice, r.Version) }
		end, rest, err := scanLines(bytes.NewReader(data[:c]), 0, 0, int64(c), func(l []byte) { applyLine(&st2, l, emit) })
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := scanLines(bytes.NewReader(data), end, rest, int64(len(data)), func(l []byte) { applyLine(&st2, l, emit) }); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(whole, twice) || !reflect.DeepEqual(st, st2) {
			t.Fatalf("whole %v, in two goes (cut at %d) %v", whole, c, twice)
		}
		// A writer on the directory.
		d := filepath.Join(t.TempDir(), "plan")
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, JournalFile), data, 0o600); err != nil {
			t.Fatal(err)
		}
		w, err := OpenStore(d, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		after, _ := os.ReadFile(filepath.Join(d, JournalFile))
		if last := bytes.LastIndexByte(data, '\n'); !bytes.Equal(after, data[:last+1]) {
			t.Fatalf("the writer left %d bytes of %d (the last newline at %d)", len(after), len(data), last)
		}
		if w.Version() != st.Version {
			t.Fatalf("writer at version %d, reader %d", w.Version(), st.Version)
		}
	})
}
