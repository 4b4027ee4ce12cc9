package agent

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/anthropics/anthropic-sdk-go/option"
)

// MaxRetryWait is the longest retry-after the loop waits out by itself (the
// SDK retries a 429 or 529 after the time the API asks for). A longer one
// ends the run at once with a line saying when the API can be tried again:
// waiting an hour in silence helps no one.
const MaxRetryWait = 60 * time.Second

// retryAfter is how long a response asks the client to wait (retry-after-ms,
// then retry-after in seconds or as an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return t.Sub(now), true
	}
	return 0, false
}

// noLongRetries is a request middleware: a response that asks to be retried
// later than limit is marked not to be retried, so the SDK returns it at
// once instead of sleeping (describe then says when to try again).
func noLongRetries(limit time.Duration) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(req)
		if err == nil && res != nil && res.StatusCode >= 400 {
			if d, ok := retryAfter(res.Header, time.Now()); ok && d > limit {
				res.Header.Set("X-Should-Retry", "false")
			}
		}
		return res, err
	}
}

// rateLimited is the line for a 429 (or an overload) that asks for a wait
// the loop does not make.
func rateLimited(what string, h http.Header, now time.Time) string {
	d, ok := retryAfter(h, now)
	if !ok || d <= 0 {
		return what + "; wait a moment and try again"
	}
	at := now.Add(d).Local().Format("15:04:05 MST")
	return fmt.Sprintf("%s; it asks to be retried in %s (at %s)", what, d.Round(time.Second), at)
}

// ErrEventTooLarge is the cause of a response the SDK could not read
// because one streamed event (one line of the stream) was too long for it.
var ErrEventTooLarge = errors.New("a streamed event was too large to read")

// tooLarge reports whether err is the SDK's stream reader refusing an
// over-long line, and describes it. The SDK reads at most 32 MiB a line
// (bufio.MaxScanTokenSize<<9 in its ssestream); a bigger event is almost
// always one huge tool input, which the same request would produce again.
func tooLarge(err error) (*Failure, bool) {
	if !errors.Is(err, bufio.ErrTooLong) {
		return nil, false
	}
	return &Failure{
		Kind: "too_large",
		Msg:  "The response could not be read: one streamed event was larger than the 32 MiB the Anthropic SDK reads in one line (most likely a tool input of that size); retrying the same request cannot help — ask for the work in smaller pieces",
		Err:  errors.Join(ErrEventTooLarge, err),
	}, true
}
