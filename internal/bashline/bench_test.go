package bashline

import (
	"strings"
	"testing"
)

func line1KB() string {
	var b strings.Builder
	for b.Len() < 1000 {
		b.WriteString(`cd src && go test ./... -run 'TestParse|TestCheck' 2>&1 | grep -v "^ok" | head -n 40; `)
		b.WriteString(`git log --oneline -n 5 -- "$(git rev-parse --show-toplevel)/README.md" > /dev/null && echo done; `)
	}
	return strings.TrimSuffix(b.String(), "; ")
}

// BenchmarkParse1KB: mvdan.cc/sh's parser alone on a 1 KB line.
func BenchmarkParse1KB(b *testing.B) {
	line := line1KB()
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommands1KB: every command of a 1 KB line.
func BenchmarkCommands1KB(b *testing.B) {
	line := line1KB()
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if l := Commands(line, Options{}); l.Err != nil {
			b.Fatal(l.Err)
		}
	}
}

// BenchmarkParseReused1KB: the parser alone, one kept from line to line
// (a Reader's).
func BenchmarkParseReused1KB(b *testing.B) {
	line := line1KB()
	var r Reader
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReaderCommands1KB: every command of a 1 KB line, with a Reader
// kept from line to line (as the permission check keeps one).
func BenchmarkReaderCommands1KB(b *testing.B) {
	line := line1KB()
	var r Reader
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if l := r.Commands(line, Options{}); l.Err != nil {
			b.Fatal(l.Err)
		}
	}
}
