package memnet

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBothEndsWriteAtOnce: writes are buffered as a socket's are, so two
// ends that both write before they read do not wait for each other (with
// net.Pipe they would, until a deadline).
func TestBothEndsWriteAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := Pipe()
		defer a.Close()
		defer b.Close()
		_, err := a.Write([]byte("hello"))
		require.NoError(t, err)
		_, err = b.Write([]byte("world!"))
		require.NoError(t, err)
		buf := make([]byte, 16)
		n, err := b.Read(buf)
		require.NoError(t, err)
		assert.Equal(t, "hello", string(buf[:n]))
		n, err = a.Read(buf)
		require.NoError(t, err)
		assert.Equal(t, "world!", string(buf[:n]))
	})
}

// TestCloseDrainsThenEOF: what was written before a Close is read, then
// EOF; a write to an end whose peer closed fails; the closed end's own
// reads and writes fail with net.ErrClosed.
func TestCloseDrainsThenEOF(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := Pipe()
		_, err := a.Write([]byte("last words"))
		require.NoError(t, err)
		require.NoError(t, a.Close())
		require.NoError(t, a.Close(), "a second Close is harmless")
		got, err := io.ReadAll(b)
		require.NoError(t, err)
		assert.Equal(t, "last words", string(got))
		_, err = b.Write([]byte("x"))
		assert.ErrorIs(t, err, syscall.EPIPE)
		_, err = a.Read(make([]byte, 1))
		assert.ErrorIs(t, err, net.ErrClosed)
		_, err = a.Write([]byte("x"))
		assert.ErrorIs(t, err, net.ErrClosed)
	})
}

// TestCloseWakesAReader: a Read waiting on an end that is then closed ends
// with net.ErrClosed; one waiting on the peer's end ends with EOF.
func TestCloseWakesAReader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := Pipe()
		own, peer := make(chan error, 1), make(chan error, 1)
		go func() { _, err := a.Read(make([]byte, 1)); own <- err }()
		go func() { _, err := b.Read(make([]byte, 1)); peer <- err }()
		synctest.Wait()
		a.Close()
		assert.ErrorIs(t, <-own, net.ErrClosed)
		assert.ErrorIs(t, <-peer, io.EOF)
	})
}

// TestReadDeadline: a Read with nothing to read ends at its deadline with
// os.ErrDeadlineExceeded (a net.Error timeout), at the deadline exactly;
// a deadline in the past fails at once; moving the deadline wakes a
// waiting reader, which then waits for the new one; a zero deadline
// waits for ever, until data comes.
func TestReadDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := Pipe()
		defer a.Close()
		defer b.Close()
		start := time.Now()
		require.NoError(t, b.SetReadDeadline(start.Add(3*time.Second)))
		_, err := b.Read(make([]byte, 1))
		require.ErrorIs(t, err, os.ErrDeadlineExceeded)
		var ne net.Error
		require.True(t, errors.As(err, &ne) && ne.Timeout())
		assert.Equal(t, 3*time.Second, time.Since(start))

		_, err = b.Read(make([]byte, 1))
		assert.ErrorIs(t, err, os.ErrDeadlineExceeded, "a passed deadline fails at once")
		assert.Equal(t, 3*time.Second, time.Since(start))

		require.NoError(t, b.SetReadDeadline(time.Now().Add(time.Hour)))
		done := make(chan error, 1)
		go func() { _, err := b.Read(make([]byte, 1)); done <- err }()
		synctest.Wait()
		require.NoError(t, b.SetReadDeadline(time.Now().Add(time.Second)))
		assert.ErrorIs(t, <-done, os.ErrDeadlineExceeded)
		assert.Equal(t, 4*time.Second, time.Since(start), "the moved deadline, not the hour")

		// No deadline: the read waits (the one before has passed, so a
		// deadline left in place would fail it at once).
		require.NoError(t, b.SetDeadline(time.Time{}))
		go func() { _, err := b.Read(make([]byte, 1)); done <- err }()
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("a read without a deadline ended: %v", err)
		default:
		}
		_, err = a.Write([]byte("x"))
		require.NoError(t, err)
		assert.NoError(t, <-done)
	})
}

// TestWriteWaitsForRoom: a write past BufferSize waits until the reader
// has made room, or until its deadline.
func TestWriteWaitsForRoom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := Pipe()
		defer a.Close()
		defer b.Close()
		big := make([]byte, BufferSize+10)
		done := make(chan int, 1)
		go func() { n, _ := a.Write(big); done <- n }()
		synctest.Wait()
		select {
		case n := <-done:
			t.Fatalf("the write of %d bytes returned without a reader", n)
		default:
		}
		got, err := io.ReadFull(b, make([]byte, len(big)))
		require.NoError(t, err)
		assert.Equal(t, len(big), got)
		assert.Equal(t, len(big), <-done)

		require.NoError(t, a.SetWriteDeadline(time.Now().Add(time.Second)))
		n, err := a.Write(big)
		assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
		assert.Equal(t, BufferSize, n, "what fitted was written")
	})
}

// TestListener: Dial reaches Accept; after Close, Accept and Dial are
// refused; a Dial whose context ends first gives up.
func TestListener(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := Listen("srv")
		assert.Equal(t, "srv", l.Addr().String())
		assert.Equal(t, "memnet", l.Addr().Network())
		accepted := make(chan net.Conn, 1)
		go func() {
			c, err := l.Accept()
			if err == nil {
				accepted <- c
			}
		}()
		c, err := l.Dial(context.Background())
		require.NoError(t, err)
		s := <-accepted
		_, err = c.Write([]byte("ping"))
		require.NoError(t, err)
		buf := make([]byte, 4)
		_, err = io.ReadFull(s, buf)
		require.NoError(t, err)
		assert.Equal(t, "ping", string(buf))

		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err = l.Dial(ctx)
		assert.ErrorIs(t, err, context.DeadlineExceeded, "nobody accepts")

		require.NoError(t, l.Close())
		_, err = l.Dial(context.Background())
		assert.ErrorIs(t, err, ErrRefused)
		_, err = l.Accept()
		assert.ErrorIs(t, err, net.ErrClosed)
	})
}
