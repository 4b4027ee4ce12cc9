package mcpserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// echoSDK stands in for the SDK: it answers every request it reads from r
// on w with the id it was given.
func echoSDK(r io.Reader, w io.Writer) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(sc.Bytes(), &m)
		if len(m.ID) == 0 {
			continue
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"method":%q}}`+"\n", m.ID, m.Method)
	}
}

// TestGuardEchoesIDsExactly: ids the SDK would read as the same integer
// (1, 1.5, 1.9), one it cannot hold (1e30), strings, and the same id twice
// each get their own response with the id exactly as sent.
func TestGuardEchoesIDsExactly(t *testing.T) {
	sent := []string{`1`, `1.5`, `1.9`, `1e30`, `-0`, `"1"`, `"x y"`, `1.50`, `1`, `12345678901234567890123`}
	var in strings.Builder
	for i, id := range sent {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%s,"method":"m%d"}`+"\n", id, i)
	}
	pr, pw := io.Pipe()
	r, w, ended := Guard(strings.NewReader(in.String()), pw, 0)
	go func() { echoSDK(r, w); <-ended; pw.Close() }()
	got := map[string]string{} // method → id
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result struct{ Method string }
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		got[m.Result.Method] = string(m.ID)
	}
	if len(got) != len(sent) {
		t.Fatalf("%d responses for %d requests: %v", len(got), len(sent), got)
	}
	for i, id := range sent {
		if g := got[fmt.Sprintf("m%d", i)]; g != id {
			t.Errorf("request %d: id %s came back as %s", i, id, g)
		}
	}
}

// TestGuardBoundsRequestsInFlight: with no response written the guard
// passes maxInFlight requests and then reads no more; each response makes
// room for one more.
func TestGuardBoundsRequestsInFlight(t *testing.T) {
	var in strings.Builder
	for i := 0; i < maxInFlight+10; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"r%d","method":"m"}`+"\n", i)
	}
	r, w, _ := Guard(strings.NewReader(in.String()), io.Discard, 0)
	lw := w.(*lineWriter)
	sc := bufio.NewScanner(r)
	var ours []string
	for len(ours) < maxInFlight && sc.Scan() {
		var m struct{ ID json.RawMessage }
		json.Unmarshal(sc.Bytes(), &m)
		ours = append(ours, string(m.ID))
	}
	// The guard now waits in admit for room.
	for lw.ids.waiting() == 0 {
		runtime.Gosched()
	}
	if n := lw.ids.inFlight(); n != maxInFlight {
		t.Fatalf("%d requests in flight, want %d", n, maxInFlight)
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`+"\n", ours[0])
	if !sc.Scan() || !strings.Contains(sc.Text(), fmt.Sprintf(`"id":%d`, maxInFlight+1)) {
		t.Fatalf("after one response: %q", sc.Text())
	}
}

// TestGuardCancellation: a notifications/cancelled names the request by the
// client's id; the SDK gets the guard's, and the request's late response is
// dropped.
func TestGuardCancellation(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1.5,"method":"slow"}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5,"reason":"x"}}` + "\n"
	var out strings.Builder
	r, w, _ := Guard(strings.NewReader(in), &out, 0)
	sc := bufio.NewScanner(r)
	sc.Scan()
	if sc.Text() != `{"jsonrpc":"2.0","id":1,"method":"slow"}` {
		t.Fatalf("request %q", sc.Text())
	}
	sc.Scan()
	if sc.Text() != `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"x"}}` {
		t.Fatalf("cancellation %q", sc.Text())
	}
	fmt.Fprintln(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"cancelled"}}`)
	if out.String() != "" {
		t.Fatalf("a cancelled request was answered: %q", out.String())
	}
}

// TestGuardPutsTheSubscriptionIDBack: the acknowledgement of a
// subscriptions/listen request and its final result name the request by
// the id the client sent (the SDK names it by the id Guard gave); other
// messages pass unchanged.
func TestGuardPutsTheSubscriptionIDBack(t *testing.T) {
	tests := []struct{ id, want string }{
		{`"listen:0"`, `"listen:0"`},
		{`7`, `7`},
		{`1.5`, `1.5`},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			in := `{"jsonrpc":"2.0","id":` + tt.id + `,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true}}}` + "\n"
			pr, pw := io.Pipe()
			r, w, ended := Guard(strings.NewReader(in), pw, 0)
			go func() {
				// The SDK: the acknowledgement, a notification of another
				// stream, then the result, each by the id it was given.
				sc := bufio.NewScanner(r)
				for sc.Scan() {
					var m struct{ ID json.RawMessage }
					json.Unmarshal(sc.Bytes(), &m)
					fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":%s},"notifications":{"toolsListChanged":true}}}`+"\n", m.ID)
					fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"other"}}}`+"\n")
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"_meta":{"io.modelcontextprotocol/subscriptionId":%s}}}`+"\n", m.ID, m.ID)
				}
				<-ended
				pw.Close()
			}()
			var got []string
			sc := bufio.NewScanner(pr)
			for sc.Scan() {
				got = append(got, sc.Text())
			}
			want := []string{
				`{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":` + tt.want + `},"notifications":{"toolsListChanged":true}}}`,
				`{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"other"}}}`,
				`{"jsonrpc":"2.0","id":` + tt.want + `,"result":{"_meta":{"io.modelcontextprotocol/subscriptionId":` + tt.want + `}}}`,
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
