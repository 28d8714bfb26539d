package main

import "os"

// createTrace creates (or empties) a --trace file readable and writable by
// its owner only, as the metrics state is: a trace holds the world the body
// saw and every invocation with its parameters. An existing file keeps its
// mode. The file is not buffered: the loop writes each finished step as
// one line in one call, so the file holds every finished step, whole, even
// when the process is killed.
func createTrace(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
}
