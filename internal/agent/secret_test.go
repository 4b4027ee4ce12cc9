package agent

import (
	"bytes"
	"reflect"
	"testing"
)

func TestEncodeDecode(t *testing.T) {
	for _, c := range []Credentials{{APIKey: "sk-1"}, {AuthToken: "tok"}, {APIKey: "k", AuthToken: "t"}, {}} {
		b, err := c.encode()
		if err != nil {
			t.Fatal(err)
		}
		got, err := decode(bytes.NewReader(b))
		if err != nil || got != c {
			t.Fatalf("%+v: got %+v, %v", c, got, err)
		}
	}
	if _, err := (Credentials{APIKey: "a\nb"}).encode(); err == nil {
		t.Fatal("a key with a newline was passed")
	}
}

func TestWithoutCredentials(t *testing.T) {
	env := []string{"PATH=/bin", APIKeyVar + "=k", AuthTokenVar + "=t", FDVar + "=9", "ANTHROPIC_BASE_URL=u"}
	if got, want := withoutCredentials(env), []string{"PATH=/bin", "ANTHROPIC_BASE_URL=u"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("%q", got)
	}
}
