package mcpserver

import (
	"bufio"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		line string
		code int
		id   string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 0, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, ""},
		{`{"jsonrpc":"2.0","id":"a","result":{}}`, 0, ""},
		{`{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x"}}`, 0, ""},
		{`not json`, codeParseError, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"x"}]`, codeInvalidRequest, ""},
		{`{"id":7}`, codeInvalidRequest, "7"},
		{`{"jsonrpc":"1.0","id":8,"method":"x"}`, codeInvalidRequest, "8"},
		{`{"jsonrpc":"2.0","id":9,"method":""}`, codeInvalidRequest, "9"},
		{`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":"x"}`, codeInvalidRequest, "10"},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"x"}`, codeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":11}`, codeInvalidRequest, "11"},
		{`"just a string"`, codeInvalidRequest, ""},
		{`{"jsonrpc":"2.0","id":12,"method":"x","params":{"a":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}`, codeInvalidRequest, "12"},
		{`{"jsonrpc":"2.0","id":13,"method":"x","params":{"a":` + strings.Repeat("[", MaxDepth-2) + strings.Repeat("]", MaxDepth-2) + `}}`, 0, ""},
		{`{"jsonrpc":"2.0","id":14,"method":"x","params":{"a":"` + strings.Repeat("[", 500) + `"}}`, 0, ""},
	}
	for _, tc := range tests {
		code, id, why := check([]byte(tc.line))
		if code != tc.code || string(id) != tc.id {
			t.Errorf("%s: code %d id %q (%s), want %d %q", tc.line, code, id, why, tc.code, tc.id)
		}
		if code != 0 && why == "" {
			t.Errorf("%s: no reason given", tc.line)
		}
	}
}

// TestGuardPassesGoodLinesAndAnswersBadOnes runs the guard over a stream with
// a line longer than its limit in the middle.
func TestGuardPassesGoodLinesAndAnswersBadOnes(t *testing.T) {
	good := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	in := good + "\n" + `{"jsonrpc":"2.0","id":2,"method":"x","params":{"pad":"` + strings.Repeat("x", 200) + `"}}` + "\n\n  \ngarbage\n" + good
	var out strings.Builder
	r, _, ended := Guard(strings.NewReader(in), &out, 100)
	var passed []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		passed = append(passed, sc.Text())
	}
	<-ended
	// Requests reach the SDK with the guard's own ids, in order.
	if len(passed) != 2 || passed[0] != good || passed[1] != strings.Replace(good, `"id":1`, `"id":2`, 1) {
		t.Errorf("passed %q", passed)
	}
	answers := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(answers) != 2 || !strings.Contains(answers[0], "longer than 100 bytes") || !strings.Contains(answers[1], "-32700") {
		t.Errorf("answers %q", answers)
	}
}
