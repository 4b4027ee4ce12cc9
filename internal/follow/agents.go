package follow

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// Codex follows the newest Codex session rollout of a project directory:
// ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl whose first record
// (session_meta) names Dir as its cwd. It watches the day directory of that
// rollout (today's when there is none yet): a session of another day that
// starts later is seen at the next start of watch.
type Codex struct {
	SessionsDir string // ~/.codex/sessions ($CODEX_HOME/sessions)
	Dir         string // the project directory, absolute
	Now         func() time.Time
}

func (c Codex) root() string {
	if best, _ := c.pick(); best != "" {
		return filepath.Dir(best)
	}
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	return filepath.Join(c.SessionsDir, now().Format("2006/01/02"))
}

func (c Codex) pick() (string, error) {
	days, err := filepath.Glob(filepath.Join(c.SessionsDir, "[0-9]*", "[0-9]*", "[0-9]*"))
	if err != nil {
		return "", err
	}
	// Newest day first: stop at the first day holding a session of Dir.
	var best string
	for i := len(days) - 1; i >= 0 && best == ""; i-- {
		best, _ = newestFile(days[i], func(p string) bool { return isRollout(p) && codexCwd(p) == c.Dir })
	}
	return best, nil
}

func isRollout(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, "rollout-") && strings.HasSuffix(b, ".jsonl")
}

// isCandidate accepts a new rollout of Dir, or one whose first record is
// not written yet (Codex creates the file, then writes its session_meta).
func (c Codex) isCandidate(p string) bool {
	if !isRollout(p) {
		return false
	}
	cwd := codexCwd(p)
	return cwd == "" || cwd == c.Dir
}

func (c Codex) file(cand string) (string, string) { return cand, filepath.Dir(cand) }
func (c Codex) name(cand string) string           { return filepath.Base(cand) }

// codexCwd reads the cwd of a rollout's first record, through the reading
// gate; "" when it cannot.
func codexCwd(path string) string {
	f, _, err := readgate.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	var first []byte
	stop := errors.New("stop")
	_, _ = readgate.ScanLines(io.LimitReader(f, readgate.MaxLine), readgate.MaxLine, func(_ int, line []byte) error {
		first = append(first, line...)
		return stop
	})
	var meta struct {
		Type    string `json:"type"`
		Payload struct {
			Cwd string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(first, &meta) != nil || meta.Type != "session_meta" {
		return ""
	}
	return meta.Payload.Cwd
}

// Gemini follows the newest Gemini CLI session of a project directory:
// ~/.gemini/tmp/<project>/chats/session-*.jsonl, where <project> is the
// short name ~/.gemini/projects.json gives the directory, or (older
// versions) the SHA-256 of its path in hex.
type Gemini struct {
	ChatsDir string
}

// GeminiChatsDir returns where Gemini CLI keeps the sessions of dir, under
// its home (~/.gemini).
func GeminiChatsDir(home, dir string) string {
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if b, err := readgate.ReadFile(filepath.Join(home, "projects.json"), readgate.ListFile); err == nil {
		if json.Unmarshal(b, &reg) == nil {
			if name := reg.Projects[dir]; name != "" && !strings.ContainsAny(name, `/\`) && name != ".." {
				return filepath.Join(home, "tmp", name, "chats")
			}
		}
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(home, "tmp", hex.EncodeToString(sum[:]), "chats")
}

func (g Gemini) root() string { return g.ChatsDir }

func (g Gemini) pick() (string, error) { return newestFile(g.ChatsDir, g.isCandidate) }

func (g Gemini) isCandidate(p string) bool {
	b := filepath.Base(p)
	return strings.HasPrefix(b, "session-") && strings.HasSuffix(b, ".jsonl")
}

func (g Gemini) file(cand string) (string, string) { return cand, filepath.Dir(cand) }
func (g Gemini) name(cand string) string           { return filepath.Base(cand) }

func (Codex) journal() bool  { return false }
func (Gemini) journal() bool { return false }
func (Codex) newest() bool   { return false }
func (Gemini) newest() bool  { return false }

func (Codex) better(next, cur string) (bool, string) {
	if cur == "" {
		return true, ""
	}
	return next != cur, "a newer rollout"
}

func (Gemini) better(next, cur string) (bool, string) {
	if cur == "" {
		return true, ""
	}
	return next != cur, "a newer session"
}
