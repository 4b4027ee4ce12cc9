package repl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestListFormatPick(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	os.WriteFile(filepath.Join(dir, "toolu_a.md"), []byte(strings.Repeat("line\n", 1500)), 0o600)
	os.Chtimes(filepath.Join(dir, "toolu_a.md"), now.Add(-time.Minute), now.Add(-time.Minute))
	os.WriteFile(filepath.Join(dir, "toolu_b.md"), []byte("one\ntwo"), 0o600)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*"), 0o600)
	es, err := listOffloads(dir, map[string]string{"toolu_a": "seq 1 1500"})
	if err != nil || len(es) != 2 {
		t.Fatalf("%v %v", es, err)
	}
	countOffloadLines(es)
	if es[0].Lines != 1500 || es[0].Size != 7500 || es[1].Lines != 2 {
		t.Fatalf("%+v", es)
	}
	out := formatOffloads(es)
	for _, want := range []string{"7.3 KB", "1500", "seq 1 1500", "(from an earlier run)", "toolu_b.md"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q in\n%s", want, out)
		}
	}
	if e, _ := pickOffload(es, ""); e.Path != es[1].Path {
		t.Fatal("/open is not the last")
	}
	if e, _ := pickOffload(es, "1"); e.Path != es[0].Path {
		t.Fatal("/open 1")
	}
	for _, bad := range []string{"0", "3", "x", "1x"} {
		if _, err := pickOffload(es, bad); err == nil {
			t.Fatalf("/open %s accepted", bad)
		}
	}
	if got := pagerCommand("", "/a b/it's.md"); got != `less -R "/a b/it's.md"` {
		t.Fatal(got)
	}
}

// TestListShowsCommandsOfEarlierRuns: the commands an earlier run recorded
// in offloads.jsonl are shown, marked as from an earlier run; this run's
// own win; a file with no record, and a bad line, still say "(from an
// earlier run)" (issue 29, item 10).
func TestListShowsCommandsOfEarlierRuns(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"toolu_a", "toolu_b", "toolu_c", "toolu_d"} {
		os.WriteFile(filepath.Join(dir, id+".md"), []byte("x\n"), 0o600)
	}
	offloadNotes := `{"tool_use_id":"toolu_a","command":"seq 1 5000","time":"2026-11-28T09:00:00Z"}
not json
{"tool_use_id":"toolu_b","command":"old","time":"2026-11-28T09:00:00Z"}
{"tool_use_id":"toolu_d","command":"` + strings.Repeat("long ", 30) + `","time":"2026-11-28T09:00:00Z"}
`
	os.WriteFile(filepath.Join(dir, "offloads.jsonl"), []byte(offloadNotes), 0o600)
	es, err := listOffloads(dir, map[string]string{"toolu_b": "new"})
	if err != nil || len(es) != 4 {
		t.Fatalf("%v %v", es, err)
	}
	byID := map[string]offloadEntry{}
	for _, e := range es {
		byID[strings.TrimSuffix(filepath.Base(e.Path), ".md")] = e
	}
	if e := byID["toolu_a"]; e.Command != "seq 1 5000" || !e.Earlier {
		t.Errorf("a: %+v", e)
	}
	if e := byID["toolu_b"]; e.Command != "new" || e.Earlier {
		t.Errorf("b: %+v", e)
	}
	if e := byID["toolu_c"]; e.Command != "" {
		t.Errorf("c: %+v", e)
	}
	out := formatOffloads(es)
	for _, want := range []string{"seq 1 5000  ↺ earlier run", "  new\n", "(from an earlier run)", "long…  ↺ earlier run"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
