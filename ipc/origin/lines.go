package origin

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// errLineTooLarge reports a line longer than the limit; the reader has
// skipped it up to its newline.
var errLineTooLarge = errors.New("line too large")

// lineReader reads newline-terminated lines of at most max bytes. A longer
// line is skipped (discarded as it arrives, never held in memory) and
// reported as errLineTooLarge; the next call reads the line after it.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, limit int) *lineReader {
	// bufio needs at least 16 bytes; two more than the limit so a line of
	// exactly limit bytes and its "\r\n" fit.
	return &lineReader{r: bufio.NewReaderSize(r, max(limit+2, 16)), max: limit}
}

// next returns the next line without its newline (and without a trailing
// carriage return). The slice is valid until the next call. At the end of
// the stream a last unterminated line is returned before io.EOF.
func (l *lineReader) next() ([]byte, error) {
	line, err := l.r.ReadSlice('\n')
	switch {
	case err == nil:
		line = line[:len(line)-1]
	case errors.Is(err, bufio.ErrBufferFull):
		if skipErr := l.skip(); skipErr != nil && !errors.Is(skipErr, io.EOF) {
			return nil, skipErr
		}
		return nil, errLineTooLarge
	case errors.Is(err, io.EOF) && len(line) > 0:
		// the last line, not terminated
	default:
		return nil, err
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) > l.max {
		return nil, errLineTooLarge
	}
	return line, nil
}

// skip discards input up to and including the next newline.
func (l *lineReader) skip() error {
	for {
		_, err := l.r.ReadSlice('\n')
		if err == nil {
			return nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return fmt.Errorf("skipping an oversized line: %w", err)
		}
	}
}
