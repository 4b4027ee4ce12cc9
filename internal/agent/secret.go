// The credentials, kept out of reach of the commands the agent runs. A
// child process can read its parent's environment block
// (/proc/$PPID/environ); root can read it whatever the
// process does to itself. So the agent command re-executes itself once,
// at start, without the credentials in its environment, and passes them to
// the new image through an inherited pipe that it reads and closes at
// once. The process then also marks itself not dumpable, which keeps other
// processes of the same (non-root) user out of its memory.

package agent

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Variables holding credentials, as the SDK reads them.
const (
	APIKeyVar    = "ANTHROPIC_API_KEY"
	AuthTokenVar = "ANTHROPIC_AUTH_TOKEN"
)

// FDVar names the descriptor that carries the credentials into the
// re-executed image. It holds a number, never a secret.
const FDVar = "TODO_SHELL_CREDENTIALS_FD"

// maxSize bounds what is passed and read back (a pipe holds 64 KiB
// without a reader).
const maxSize = 32 << 10

// Credentials are the values the agent authenticates with.
type Credentials struct {
	APIKey    string
	AuthToken string
}

// Values returns the non-empty values (for redaction).
func (c Credentials) Values() []string {
	var out []string
	for _, v := range []string{c.APIKey, c.AuthToken} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Empty reports whether there are no credentials.
func (c Credentials) Empty() bool { return c.APIKey == "" && c.AuthToken == "" }

// FromEnv returns the credentials held by getenv's environment.
func FromEnv(getenv func(string) string) Credentials {
	return Credentials{APIKey: getenv(APIKeyVar), AuthToken: getenv(AuthTokenVar)}
}

// encode writes the credentials as two lines, key then token.
func (c Credentials) encode() ([]byte, error) {
	if strings.ContainsAny(c.APIKey, "\n\x00") || strings.ContainsAny(c.AuthToken, "\n\x00") {
		return nil, errors.New("a credential holds a newline or NUL")
	}
	b := []byte(c.APIKey + "\n" + c.AuthToken + "\n")
	if len(b) > maxSize {
		return nil, fmt.Errorf("credentials of %d bytes (at most %d)", len(b), maxSize)
	}
	return b, nil
}

// decode reads what encode wrote.
func decode(r io.Reader) (Credentials, error) {
	br := bufio.NewReader(io.LimitReader(r, maxSize+1))
	key, err1 := br.ReadString('\n')
	tok, err2 := br.ReadString('\n')
	if err := errors.Join(err1, err2); err != nil {
		return Credentials{}, fmt.Errorf("read credentials: %w", err)
	}
	return Credentials{APIKey: strings.TrimSuffix(key, "\n"), AuthToken: strings.TrimSuffix(tok, "\n")}, nil
}

// fromFD reads the credentials the previous image passed on descriptor
// fdText and closes it.
func fromFD(fdText string) (Credentials, error) {
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 {
		return Credentials{}, fmt.Errorf("%s=%q is not a descriptor", FDVar, fdText)
	}
	f := os.NewFile(uintptr(fd), "credentials")
	if f == nil {
		return Credentials{}, fmt.Errorf("%s=%d is not open", FDVar, fd)
	}
	c, err := decode(f)
	return c, errors.Join(err, f.Close())
}

// withoutCredentials is environ without the credential variables and
// FDVar.
func withoutCredentials(environ []string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == APIKeyVar || name == AuthTokenVar || name == FDVar {
			continue
		}
		out = append(out, kv)
	}
	return out
}
