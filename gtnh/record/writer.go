package record

import (
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Writer writes a recording: the header, then records into a gzip stream.
// It is safe for concurrent use. The stream is flushed at most FlushEvery
// after a record is written (by the next record, or by a timer when none
// follows) and on Flush, so a run that is killed leaves a readable prefix.
type Writer struct {
	mu        sync.Mutex
	dst       io.Writer
	zw        *gzip.Writer
	start     time.Time
	now       func() time.Time
	every     time.Duration
	lastFlush time.Time
	limit     int64
	written   int64
	stopped   bool
	closed    bool
	timer     *time.Timer // a pending flush of records written since the last one
	err       error
	buf       []byte
}

// WriterOptions tune a Writer; the zero value is usable.
type WriterOptions struct {
	// FlushEvery is the longest time written records stay in the
	// compressor's buffer (default 1 s).
	FlushEvery time.Duration
	// Limit bounds the recording's content (bytes before compression);
	// the record that would pass it is replaced by a KindLimit record and
	// nothing more is written. 0 means no limit.
	Limit int64
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// NewWriter writes the header to w and returns a writer whose time starts
// now.
func NewWriter(w io.Writer, opts WriterOptions) (*Writer, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.FlushEvery <= 0 {
		opts.FlushEvery = time.Second
	}
	head := binary.BigEndian.AppendUint16([]byte(Magic), Version)
	if _, err := w.Write(head); err != nil {
		return nil, fmt.Errorf("recording: writing the header: %w", err)
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	now := opts.Now()
	return &Writer{dst: w, zw: zw, start: now, now: opts.Now, every: opts.FlushEvery, lastFlush: now, limit: opts.Limit}, nil
}

// errStopped is returned after the size limit was reached.
var errStopped = errors.New("recording: stopped at its size limit")

// Write appends one record stamped with the current time.
func (w *Writer) Write(kind Kind, body []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeLocked(kind, body)
}

func (w *Writer) writeLocked(kind Kind, body []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("recording: write after Close")
	}
	if w.stopped {
		return errStopped
	}
	if len(body) > MaxBody {
		return fmt.Errorf("recording: a %s record of %d bytes is over the %d-byte bound", kind, len(body), MaxBody)
	}
	now := w.now()
	ms := now.Sub(w.start).Milliseconds()
	if ms < 0 {
		ms = 0
	}
	b := append(w.buf[:0], byte(kind))
	b = binary.AppendUvarint(b, uint64(ms))
	b = binary.AppendUvarint(b, uint64(len(body)))
	if w.limit > 0 && w.written+int64(len(b)+len(body)) > w.limit {
		w.stopped = true
		b = append(w.buf[:0], byte(KindLimit))
		lim := fmt.Appendf(nil, `{"bytes":%d}`, w.limit)
		b = binary.AppendUvarint(b, uint64(ms))
		b = binary.AppendUvarint(b, uint64(len(lim)))
		b = append(b, lim...)
		w.buf = b
		if _, err := w.zw.Write(b); err != nil {
			w.err = fmt.Errorf("recording: %w", err)
			return w.err
		}
		w.flushLocked(now)
		return errStopped
	}
	w.buf = b
	if _, err := w.zw.Write(b); err != nil {
		w.err = fmt.Errorf("recording: %w", err)
		return w.err
	}
	if _, err := w.zw.Write(body); err != nil {
		w.err = fmt.Errorf("recording: %w", err)
		return w.err
	}
	w.written += int64(len(b) + len(body))
	switch {
	case now.Sub(w.lastFlush) >= w.every:
		w.flushLocked(now)
	case w.timer == nil:
		w.timer = time.AfterFunc(w.every, func() { _ = w.Flush() })
	}
	return w.err
}

// Flush pushes the records written so far to the destination.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil && !w.closed {
		w.flushLocked(w.now())
	}
	return w.err
}

func (w *Writer) flushLocked(now time.Time) {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	if err := w.zw.Flush(); err != nil {
		w.err = fmt.Errorf("recording: %w", err)
	}
	w.lastFlush = now
}

// Written is the size of the content written so far (before compression).
func (w *Writer) Written() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.written
}

// Close ends the gzip stream (the destination stays open).
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.timer != nil {
		// A flush already running waits for the lock, then finds the
		// writer closed.
		w.timer.Stop()
		w.timer = nil
	}
	if err := w.zw.Close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("recording: %w", err)
	}
	return w.err
}
