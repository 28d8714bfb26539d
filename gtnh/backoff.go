package gtnh

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Backoff is the reconnect policy: after a connection ends the client waits
// Delay(n) before attempt n (1, 2, …) and gives up after MaxAttempts
// failed attempts in a row (0: never). A connection that reached the play
// state resets the count. The zero value does not reconnect.
type Backoff struct {
	// Enabled turns reconnecting on.
	Enabled bool
	// Initial is the first delay (default 1 s).
	Initial time.Duration
	// Max caps the delay (default 1 minute).
	Max time.Duration
	// Multiplier grows the delay per attempt (default 2).
	Multiplier float64
	// Jitter spreads each delay by up to ±Jitter of itself (0..1, default 0)
	// so that many bots do not reconnect in step.
	Jitter float64
	// MaxAttempts bounds consecutive failed attempts (0: unlimited).
	MaxAttempts int
	// Rand returns a number in [0, 1) for the jitter (default math/rand).
	Rand func() float64
}

func (b Backoff) withDefaults() Backoff {
	if b.Initial <= 0 {
		b.Initial = time.Second
	}
	if b.Max <= 0 {
		b.Max = time.Minute
	}
	if b.Multiplier < 1 {
		b.Multiplier = 2
	}
	return b
}

// Validate checks the policy.
func (b Backoff) Validate() error {
	var errs []error
	if b.Initial < 0 || b.Max < 0 {
		errs = append(errs, errors.New("delays must not be negative"))
	}
	if b.Max > 0 && b.Initial > b.Max {
		errs = append(errs, fmt.Errorf("initial delay %v exceeds the maximum %v", b.Initial, b.Max))
	}
	if b.Multiplier != 0 && b.Multiplier < 1 {
		errs = append(errs, fmt.Errorf("multiplier %v is below 1", b.Multiplier))
	}
	if b.Jitter < 0 || b.Jitter > 1 {
		errs = append(errs, fmt.Errorf("jitter %v outside 0..1", b.Jitter))
	}
	if b.MaxAttempts < 0 {
		errs = append(errs, fmt.Errorf("max attempts %d is negative", b.MaxAttempts))
	}
	return errors.Join(errs...)
}

// Delay is the wait before attempt n (1-based): Initial × Multiplier^(n−1),
// capped at Max, then jittered.
func (b Backoff) Delay(n int) time.Duration {
	b = b.withDefaults()
	if n < 1 {
		n = 1
	}
	d := float64(b.Initial) * math.Pow(b.Multiplier, float64(n-1))
	if d > float64(b.Max) || math.IsInf(d, 0) || math.IsNaN(d) {
		d = float64(b.Max)
	}
	if b.Jitter > 0 {
		r := 0.5
		if b.Rand != nil {
			r = b.Rand()
		} else {
			r = randFloat()
		}
		d *= 1 + b.Jitter*(2*r-1)
	}
	return time.Duration(d)
}

// Schedule lists the first n delays (for documentation and tests).
func (b Backoff) Schedule(n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = b.Delay(i + 1)
	}
	return out
}
