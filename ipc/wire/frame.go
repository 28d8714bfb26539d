package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// DefaultMaxMessage is the default limit on one message line (4 MiB,
// without the newline). Both sides refuse longer lines.
const DefaultMaxMessage = 4 << 20

// minMaxMessage keeps a configured limit usable: a hello must fit.
const minMaxMessage = 1 << 10

// TooLargeError reports a line longer than the limit; its bytes were
// discarded up to the next newline, so the stream can go on.
type TooLargeError struct {
	Limit int
	// Discarded counts the bytes skipped (the line, without its newline).
	Discarded int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("message of %d bytes exceeds the limit of %d bytes", e.Discarded, e.Limit)
}

// Reader reads newline-delimited messages, each at most a limit long. A
// longer line is skipped without being held in memory and reported as a
// *TooLargeError; the next call reads the line after it.
type Reader struct {
	br  *bufio.Reader
	max int
	buf []byte
}

// NewReader reads lines of at most max bytes from r (max <= 0 means
// DefaultMaxMessage; values under 1 KiB are raised to 1 KiB).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxMessage
	}
	max = Limit(max)
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Limit returns the effective message limit for a configured value.
func Limit(max int) int {
	if max <= 0 {
		return DefaultMaxMessage
	}
	return maxInt(max, minMaxMessage)
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Next returns the next non-empty line, without its newline (and a "\r"
// before it). The slice is valid until the next call. At the end of the
// stream it returns io.EOF; a last line without a newline is returned as a
// line.
func (r *Reader) Next() ([]byte, error) {
	for {
		line, err := r.next()
		if err != nil {
			return nil, err
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		return line, nil
	}
}

func (r *Reader) next() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		body := chunk
		if err == nil {
			body = chunk[:len(chunk)-1]
		}
		if len(r.buf)+len(body) > r.max {
			n := int64(len(r.buf) + len(body))
			r.buf = r.buf[:0]
			if err == nil {
				return nil, &TooLargeError{Limit: r.max, Discarded: n}
			}
			return nil, r.discard(n, err)
		}
		r.buf = append(r.buf, body...)
		switch {
		case err == nil:
			return r.buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(r.buf) > 0:
			return r.buf, nil
		default:
			return nil, err
		}
	}
}

// discard skips the rest of an oversized line.
func (r *Reader) discard(n int64, err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		var chunk []byte
		chunk, err = r.br.ReadSlice('\n')
		n += int64(len(chunk))
		if err == nil {
			n--
		}
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return &TooLargeError{Limit: r.max, Discarded: n}
}

// Writer writes whole lines; it is safe for concurrent use, one line per
// call, so lines from several goroutines never interleave.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	max int
}

// NewWriter writes lines of at most max bytes to w (max as for NewReader).
func NewWriter(w io.Writer, max int) *Writer { return &Writer{w: w, max: Limit(max)} }

// WriteLine writes line and a newline in one call. A line over the limit is
// not written: the peer would refuse it.
func (w *Writer) WriteLine(line []byte) error {
	if len(line) > w.max {
		return Errorf(CodeTooLarge, "an outgoing message of %d bytes exceeds the limit of %d bytes", len(line), w.max)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	_, err := w.w.Write(buf)
	return err
}
