package gtnh

import (
	"runtime"
	"strings"
)

// parkedOnLock waits until a goroutine whose stack holds fn is parked
// taking a sync.Mutex (runtime.Stack's state "[sync.Mutex.Lock"), and says
// so; it returns false as soon as finished says the goroutine ended
// instead. It asks the scheduler, not the clock: a test that parks a
// goroutine on a mutex on purpose (outside a synctest bubble, whose clock a
// mutex does not stop) knows it is parked before it goes on, however
// loaded the machine.
func parkedOnLock(fn string, finished func() bool) bool {
	buf := make([]byte, 1<<20)
	for {
		if finished() {
			return false
		}
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			if strings.Contains(g, "[sync.Mutex.Lock") && strings.Contains(g, fn) {
				return true
			}
		}
		runtime.Gosched()
	}
}

// closed says whether ch is closed.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
