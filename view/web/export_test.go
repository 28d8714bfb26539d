package web

import "time"

// WithClock sets the failure limiter's clock of a ServeOptions (tests).
func WithClock(o ServeOptions, now func() time.Time) ServeOptions {
	o.now = now
	return o
}
