package hold

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzTranscript: any bytes, read whole or in two pieces with the state
// kept between: no panic, a bounded answer (a stop held for something, a
// stop let through with a reason only when something is held), and a stop
// never held more than MaxBlocks times. Package hook's FuzzStopWording
// words such verdicts.
func FuzzTranscript(f *testing.F) {
	for _, name := range []string{"claude-code-2.1.332_hook.jsonl", "claude-code-2.1.332_interrupt.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		// The last records, the interrupt or the held stop among them.
		if len(b) > 3<<10 {
			b = b[len(b)-3<<10:]
		}
		f.Add(b, uint16(len(b)/2))
	}
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":"go"},"promptId":"p"}`+"\n"+
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"TodoWrite","input":{"todos":[{"content":"A","status":"pending"}]}}]}}`+"\n"+
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}`+"\n"), uint16(60))
	f.Add([]byte("{\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\"}}\n{\"$set\":{\"messages\":[]}}\n"), uint16(3))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		// One file, rewritten for each input: the fuzzer runs the inputs
		// of a process one after the other.
		path := filepath.Join(dir, "t.jsonl")
		c := min(int(cut), len(data))
		if err := os.WriteFile(path, data[:c], 0o600); err != nil {
			t.Fatal(err)
		}
		st := &State{V: stateVersion, Transcript: path}
		for _, piece := range [][]byte{nil, data[c:]} {
			if piece != nil {
				f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.Write(piece)
				f.Close()
			}
			for i := 0; i < 3; i++ {
				live, save, err := read(st, Source{Transcript: path}, 0)
				if err != nil {
					t.Fatal(err)
				}
				s := &Session{st: live, save: save}
				v := s.Stop(StopInput{MaxBlocks: 2, Active: i > 0})
				if v.Blocks > 2 || v.Block && (v.Blocks == 0 || len(v.Held) == 0 || v.Through != ThroughUnsaid) ||
					v.Through != ThroughUnsaid && len(v.Held) == 0 {
					t.Fatalf("verdict %+v", v)
				}
				s.View()
				if save == nil || save.Offset > live.Offset {
					t.Fatalf("saved %+v after %+v", save, live)
				}
				st = save
			}
		}
	})
}
