package record

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Retry calls a provider with a timeout per attempt, and tries again after a rate limit or
// a server error, waiting what the provider's retry-after header asks for or else an
// exponential backoff. The providers make no retry of their own, so that this one policy
// holds for both and tests can run it without waiting.
type Retry struct {
	// Retries is how many times a failed call is tried again.
	Retries int
	// Backoff is the first wait without a retry-after header; it doubles each time, up to
	// MaxWait.
	Backoff time.Duration
	// MaxWait is the longest wait: a retry-after beyond it ends the call with the error.
	MaxWait time.Duration
	// Timeout bounds each attempt; 0 means none.
	Timeout time.Duration
	// Sleep waits d or until ctx is done; nil means a real timer. Tests pass a fake.
	Sleep func(ctx context.Context, d time.Duration) error
	// Notify, when set, hears of each retry before its wait.
	Notify func(attempt int, wait time.Duration, err error)
	// RateLimitsOnly retries only 429s, for calls that must not be made twice (creating a
	// batch: after a 5xx it may exist already).
	RateLimitsOnly bool
}

// DefaultRetry is the policy of compacteval record.
var DefaultRetry = Retry{Retries: 5, Backoff: time.Second, MaxWait: 2 * time.Minute, Timeout: 10 * time.Minute}

// ErrTimeout is returned when an attempt gets no answer within Retry.Timeout.
var ErrTimeout = errors.New("no answer in time")

// Do calls f until it succeeds, fails with an error that retrying cannot fix, or the
// retries are spent. A cancelled ctx ends it at once with ctx's error. Attempts that time
// out are not retried: a generation that took too long once will likely do so again.
func (r Retry) Do(ctx context.Context, f func(ctx context.Context) error) error {
	sleep := r.Sleep
	if sleep == nil {
		sleep = realSleep
	}
	for attempt := 0; ; attempt++ {
		err := r.attempt(ctx, f)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var se *StatusError
		retryable := errors.As(err, &se) && se.Retryable() && (!r.RateLimitsOnly || se.Status == http.StatusTooManyRequests)
		if !retryable || attempt >= r.Retries {
			if retryable {
				return fmt.Errorf("%w (gave up after %d attempts)", err, attempt+1)
			}
			return err
		}
		wait := r.backoff(attempt)
		if se.HasRetryAfter {
			wait = se.RetryAfter
			if r.MaxWait > 0 && wait > r.MaxWait {
				return fmt.Errorf("%w (the provider asks to retry after %v, longer than the %v this command waits)", err, wait, r.MaxWait)
			}
		}
		if r.Notify != nil {
			r.Notify(attempt+1, wait, err)
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

func (r Retry) attempt(ctx context.Context, f func(ctx context.Context) error) error {
	if r.Timeout <= 0 {
		return f(ctx)
	}
	actx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	err := f(actx)
	if err != nil && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: no answer within %v", ErrTimeout, r.Timeout)
	}
	return err
}

// backoff returns Backoff * 2^attempt, at most MaxWait.
func (r Retry) backoff(attempt int) time.Duration {
	d := r.Backoff
	for range attempt {
		d *= 2
		if r.MaxWait > 0 && d >= r.MaxWait {
			return r.MaxWait
		}
	}
	return d
}

func realSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
