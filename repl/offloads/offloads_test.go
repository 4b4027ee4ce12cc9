package offloads

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
	es, err := List(dir, map[string]string{"toolu_a": "seq 1 1500"})
	if err != nil || len(es) != 2 {
		t.Fatalf("%v %v", es, err)
	}
	CountLines(es)
	if es[0].Lines != 1500 || es[0].Size != 7500 || es[1].Lines != 2 {
		t.Fatalf("%+v", es)
	}
	out := Format(es)
	for _, want := range []string{"7.3 KB", "1500", "seq 1 1500", "(from an earlier run)", "toolu_b.md"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q in\n%s", want, out)
		}
	}
	if e, _ := Pick(es, ""); e.Path != es[1].Path {
		t.Fatal("/open is not the last")
	}
	if e, _ := Pick(es, "1"); e.Path != es[0].Path {
		t.Fatal("/open 1")
	}
	for _, bad := range []string{"0", "3", "x", "1x"} {
		if _, err := Pick(es, bad); err == nil {
			t.Fatalf("/open %s accepted", bad)
		}
	}
	if got := PagerCommand("", "/a b/it's.md"); got != `less -R "/a b/it's.md"` {
		t.Fatal(got)
	}
}
