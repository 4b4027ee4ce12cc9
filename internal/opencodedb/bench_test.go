package opencodedb

import (
	"encoding/json"
	"os"
	"testing"
)

// realParts are the parts of the real opencode 1.18.33's export, each as
// opencode keeps it in part.data.
func realParts(tb testing.TB) [][]byte {
	tb.Helper()
	b, err := os.ReadFile(fixture)
	if err != nil {
		tb.Fatal(err)
	}
	var doc struct {
		Messages []struct {
			Parts []json.RawMessage `json:"parts"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		tb.Fatal(err)
	}
	var parts [][]byte
	for _, m := range doc.Messages {
		for _, p := range m.Parts {
			parts = append(parts, p)
		}
	}
	return parts
}

// BenchmarkPlanPart reads every part of the real export as a read of the
// database does once a part's start has not ruled it out: parsed, and a
// todowrite call slimmed (BENCHMARKS.md, "One JSON path").
func BenchmarkPlanPart(b *testing.B) {
	parts := realParts(b)
	size, plans := 0, 0
	for _, p := range parts {
		size += len(p)
		if _, _, ok := planPart(p); ok {
			plans++
		}
	}
	if plans == 0 {
		b.Fatal("no todowrite part in the export")
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range parts {
			planPart(p)
		}
	}
}
