package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
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
	// stop: a line over the limit ends the stream instead of being
	// skipped (err then holds the error every later call returns).
	stop bool
	err  error
}

// defaultReadBuffer is the read buffer of NewReader.
const defaultReadBuffer = 64 << 10

// keepLineBuffer is the largest line buffer a Reader keeps between lines:
// one long line does not pin its memory for the rest of the stream.
const keepLineBuffer = 64 << 10

// NewReader reads lines of at most max bytes from r (max <= 0 means
// DefaultMaxMessage; values under 1 KiB are raised to 1 KiB).
func NewReader(r io.Reader, max int) *Reader { return NewReaderSize(r, max, defaultReadBuffer) }

// NewReaderSize is NewReader with a read buffer of size bytes (at least
// 16): a server holding many connections that have not yet said who they
// are keeps a small one, since their lines are short.
func NewReaderSize(r io.Reader, max, size int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, size), max: Limit(max)}
}

// SetMax changes the line limit from the next line on (max as for
// NewReader): a server raises it once a peer has said hello.
func (r *Reader) SetMax(max int) { r.max = Limit(max) }

// Max is the current line limit.
func (r *Reader) Max() int { return r.max }

// StopAtTooLarge makes a line over the limit end the stream (stop true):
// Next returns the *TooLargeError as soon as the limit is passed, without
// reading the rest of the line, and returns it again on every later call.
// A server reading a peer that has not said hello uses it: such a peer
// gets no time to send megabytes. With stop false (the default) a long
// line is read to its end and skipped.
func (r *Reader) StopAtTooLarge(stop bool) { r.stop = stop }

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
	if r.err != nil {
		return nil, r.err
	}
	if cap(r.buf) > keepLineBuffer {
		r.buf = nil
	}
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
			if r.stop {
				r.err = &TooLargeError{Limit: r.max, Discarded: n}
				return nil, r.err
			}
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

// WriteLine writes line and a newline, without copying the line (one
// vectored write on a socket). A line over the limit is not written: the
// peer would refuse it.
func (w *Writer) WriteLine(line []byte) error {
	if len(line) > w.max {
		return Errorf(CodeTooLarge, "an outgoing message of %d bytes exceeds the limit of %d bytes", len(line), w.max)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := WriteLine(w.w, line)
	return err
}

var newline = []byte{'\n'}

// WriteLine writes line and a newline to w without copying the line: a
// socket gets one vectored write, any other writer two writes. It returns
// the bytes written, the newline included.
func WriteLine(w io.Writer, line []byte) (int64, error) {
	bufs := net.Buffers{line, newline}
	return bufs.WriteTo(w)
}
