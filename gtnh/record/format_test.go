package record

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/fakeserver"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time      { return c.t }
func (c *fakeClock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *fakeClock               { return &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }
func header() []byte                     { return binary.BigEndian.AppendUint16([]byte(Magic), Version) }
func rec(kind Kind, ms uint64, body []byte) []byte {
	b := binary.AppendUvarint([]byte{byte(kind)}, ms)
	b = binary.AppendUvarint(b, uint64(len(body)))
	return append(b, body...)
}

// wrap makes a recording of raw content: the header, then the content
// gzip-compressed.
func wrap(content []byte) []byte {
	var buf bytes.Buffer
	buf.Write(header())
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(content)
	_ = zw.Close()
	return buf.Bytes()
}

func readAll(t *testing.T, data []byte) ([]Record, error) {
	t.Helper()
	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var out []Record
	for {
		r, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		r.Body = bytes.Clone(r.Body)
		out = append(out, r)
	}
}

// TestRecorderWritesWhatTheDecoderSaw: a connection's records in order,
// with their times, the state switching at Login Success, the server's
// Encryption Request and everything sent but positions left out.
func TestRecorderWritesWhatTheDecoderSaw(t *testing.T) {
	clk := newClock()
	var buf bytes.Buffer
	r, err := NewRecorder(&buf, RecorderOptions{WriterOptions: WriterOptions{Now: clk.now}})
	require.NoError(t, err)
	mods := []proto17.ModInfo{{ModID: "neid", Version: "2.1.10"}}
	r.Connected(gtnh.TapConnection{Username: "Bot", Mods: mods, Formats: proto17.Formats{NEID: true}})
	clk.add(5 * time.Millisecond)
	r.Received(proto17.IDClientboundEncryptionRequest, []byte("server key and challenge"))
	r.Sent(&proto17.LoginStart{Name: "Bot"})
	r.Received(proto17.IDClientboundLoginSuccess, []byte("uuid and name"))
	clk.add(10 * time.Millisecond)
	r.Received(proto17.IDClientboundKeepAlive, []byte{0, 0, 0, 7})
	hs, err := proto17.EncodeFML(&proto17.ModList{Mods: mods})
	require.NoError(t, err)
	pm, err := (&proto17.PluginMessage{Channel: proto17.ChannelFMLHandshake, Data: hs}).AppendPayload(nil, proto17.Formats{})
	require.NoError(t, err)
	r.Received(proto17.IDClientboundPluginMessage, pm)
	r.FormatsChanged(proto17.Formats{NEID: true, ModularUI: true})
	r.Sent(&proto17.ServerboundChat{Message: "hello"})
	r.Sent(&proto17.PlayerBlockPlacement{X: -1, Y: 255, Z: -1, Face: -1}) // in the air: no block
	r.Sent(&proto17.PlayerBlockPlacement{X: -6, Y: 64, Z: -8, Face: 1})
	r.Sent(&proto17.ClickWindow{WindowID: 3, Slot: 7, Button: 1, Action: 5, Mode: 0})
	r.Sent(&proto17.ServerboundHeldItemChange{Slot: 4})
	r.Sent(&proto17.ServerboundPlayerPositionAndLook{X: 1.5, FeetY: 64, HeadY: 65.62, Z: -2.25, Yaw: 90, Pitch: 10, OnGround: true})
	r.Closed()
	r.Received(proto17.IDClientboundKeepAlive, []byte{0, 0, 0, 8}) // after the close: not recorded
	require.NoError(t, r.Close())

	recs, err := readAll(t, buf.Bytes())
	require.NoError(t, err)
	kinds := make([]Kind, len(recs))
	for i, rc := range recs {
		kinds[i] = rc.Kind
	}
	require.Equal(t, []Kind{KindConnection, KindPacket, KindPacket, KindPacket, KindMods, KindFormats,
		KindBlockClick, KindWindowClick, KindHeld, KindPosition, KindClosed}, kinds)
	var cn Connection
	require.NoError(t, recs[0].JSON(&cn))
	assert.Equal(t, "Bot", cn.Username)
	assert.Equal(t, mods, cn.Mods)
	assert.True(t, cn.Formats.NEID)
	assert.Equal(t, clk.t.Add(-15*time.Millisecond).UnixMilli(), cn.Started)

	st, id, payload, err := recs[1].Packet()
	require.NoError(t, err)
	assert.Equal(t, []any{StateLogin, proto17.IDClientboundLoginSuccess, "uuid and name"}, []any{st, id, string(payload)})
	assert.Equal(t, 5*time.Millisecond, recs[1].Time)
	st, id, payload, err = recs[2].Packet()
	require.NoError(t, err)
	assert.Equal(t, []any{StatePlay, proto17.IDClientboundKeepAlive, []byte{0, 0, 0, 7}}, []any{st, id, payload})
	assert.Equal(t, 15*time.Millisecond, recs[2].Time)
	var got []proto17.ModInfo
	require.NoError(t, recs[4].JSON(&got))
	assert.Equal(t, mods, got)
	var f proto17.Formats
	require.NoError(t, recs[5].JSON(&f))
	assert.Equal(t, proto17.Formats{NEID: true, ModularUI: true}, f)
	bc, err := recs[6].BlockClick()
	require.NoError(t, err)
	assert.Equal(t, world.Pos(-6, 64, -8), bc)
	wc, err := recs[7].WindowClick()
	require.NoError(t, err)
	assert.Equal(t, WindowClick{Window: 3, Slot: 7, Button: 1, Mode: 0}, wc)
	held, err := recs[8].Held()
	require.NoError(t, err)
	assert.Equal(t, int8(4), held)
	p, err := recs[9].Position()
	require.NoError(t, err)
	assert.Equal(t, Position{X: 1.5, FeetY: 64, Z: -2.25, Yaw: 90, Pitch: 10, OnGround: true}, p)
	assert.NotContains(t, string(contentOf(t, buf.Bytes())), "server key")
}

// TestWriterFlushesRegularly: a run killed without Close leaves the records
// written up to the last flush readable, then a truncation error.
func TestWriterFlushesRegularly(t *testing.T) {
	clk := newClock()
	var buf bytes.Buffer
	// An hour: the flush timer does not fire while the test runs.
	w, err := NewWriter(&buf, WriterOptions{Now: clk.now, FlushEvery: time.Hour})
	require.NoError(t, err)
	require.NoError(t, w.Write(KindClosed, nil))
	readable := func() int {
		recs, _ := readAll(t, bytes.Clone(buf.Bytes()))
		return len(recs)
	}
	assert.Zero(t, readable(), "not flushed yet")
	clk.add(time.Hour - time.Millisecond)
	require.NoError(t, w.Write(KindClosed, nil))
	assert.Zero(t, readable(), "still within FlushEvery")
	clk.add(time.Millisecond)
	require.NoError(t, w.Write(KindClosed, nil))
	assert.Equal(t, 3, readable(), "flushed after FlushEvery")
	_, err = readAll(t, bytes.Clone(buf.Bytes()))
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	assert.True(t, fe.Truncated(), "no end of stream: the run was killed")
	assert.Equal(t, int64(3+6+6), fe.Offset, "after three records (times of 0, 3599999 and 3600000 ms: 1, 4 and 4 bytes)")
	require.NoError(t, w.Close())
	require.Error(t, w.Write(KindClosed, nil), "closed")
}

// TestWriterFlushesWhenNothingFollows: records after which nothing comes
// are not flushed by their own writes but by a timer, FlushEvery after the
// first (the bubble's time: exactly 10 ms).
func TestWriterFlushesWhenNothingFollows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dst := &notifyingBuffer{wrote: make(chan struct{}, 64)}
		w, err := NewWriter(dst, WriterOptions{FlushEvery: 10 * time.Millisecond})
		require.NoError(t, err)
		start := time.Now()
		require.NoError(t, w.Write(KindClosed, nil))
		require.NoError(t, w.Write(KindClosed, nil))
		synctest.Wait()
		for len(dst.wrote) > 0 { // the stream's header, written at once
			<-dst.wrote
		}
		recs, _ := readAll(t, dst.Bytes())
		assert.Empty(t, recs, "not flushed by their own writes")
		<-dst.wrote
		assert.Equal(t, 10*time.Millisecond, time.Since(start), "flushed by the timer, FlushEvery later")
		recs, _ = readAll(t, dst.Bytes())
		assert.Len(t, recs, 2)
		require.NoError(t, w.Close())
	})
}

// notifyingBuffer is a buffer safe for concurrent use that says on wrote
// when it was written to.
type notifyingBuffer struct {
	buf   syncbuf.Buffer
	wrote chan struct{}
}

func (b *notifyingBuffer) Write(p []byte) (int, error) {
	n, err := b.buf.Write(p)
	select {
	case b.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func (b *notifyingBuffer) Bytes() []byte { return b.buf.Bytes() }

// TestWriterLimit: the record that would pass the limit becomes a limit
// record, and nothing is written after it.
func TestWriterLimit(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, WriterOptions{Limit: 20})
	require.NoError(t, err)
	require.NoError(t, w.Write(KindPacket, []byte{1, 0, 1, 2, 3, 4, 5})) // 10 bytes
	require.NoError(t, w.Write(KindPacket, []byte{1, 0, 1, 2, 3, 4, 5})) // 20 bytes: at the limit
	require.ErrorIs(t, w.Write(KindClosed, nil), errStopped)
	require.ErrorIs(t, w.Write(KindClosed, nil), errStopped)
	require.NoError(t, w.Close())
	assert.Equal(t, int64(20), w.Written())
	recs, err := readAll(t, buf.Bytes())
	require.NoError(t, err)
	require.Len(t, recs, 3)
	assert.Equal(t, KindLimit, recs[2].Kind)
	var l Limit
	require.NoError(t, recs[2].JSON(&l))
	assert.Equal(t, int64(20), l.Bytes)
}

// TestReaderRefusesBadRecordings: each broken recording is an error that
// names the offset and what was expected, after the records that were
// whole.
func TestReaderRefusesBadRecordings(t *testing.T) {
	ok := rec(KindClosed, 5, nil)
	cases := []struct {
		name  string
		data  []byte
		whole int
		off   int64
		want  string
	}{
		{"empty file", nil, 0, 0, "expected the header"},
		{"not a recording", []byte("PK\x03\x04 a zip file"), 0, 0, "not a recording"},
		{"newer version", append([]byte(Magic), 0, 2), 0, 8, "version 2 is not known"},
		{"no gzip stream", header(), 0, 0, "a gzip stream"},
		{"kind 0", wrap(append(bytes.Clone(ok), 0, 1, 0)), 1, 3, "record kind"},
		{"time cut", wrap(append(bytes.Clone(ok), 2, 0x80)), 1, 3, "the time of a packet record: unexpected EOF"},
		{"time backwards", wrap(append(bytes.Clone(ok), rec(KindClosed, 4, nil)...)), 1, 3, "not before the previous record's (5 ms)"},
		{"length too large", wrap(append(bytes.Clone(ok), 2, 6, 0xFF, 0xFF, 0xFF, 0x7F)), 1, 3, "at most 2097168 bytes"},
		{"length over four bytes", wrap(append(bytes.Clone(ok), 2, 6, 0xFF, 0xFF, 0xFF, 0xFF, 0x01)), 1, 3, "longer than 4 bytes"},
		{"body cut", wrap(append(bytes.Clone(ok), 2, 6, 100, 1, 2, 3)), 1, 3, "a packet record body of 100 bytes (3 read): unexpected EOF"},
		{"gzip cut", wrap([]byte{1, 2, 3})[:len(header())+12], 0, 0, "unexpected EOF"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := readAll(t, tc.data)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			assert.Len(t, recs, tc.whole)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, tc.off, fe.Offset, err.Error())
		})
	}
}

// TestRecordBodies: the typed readers refuse bodies that do not fit.
func TestRecordBodies(t *testing.T) {
	bad := []struct {
		rec  Record
		read func(Record) error
		want string
	}{
		{Record{Kind: KindPacket, Body: []byte{1}}, pkt, "a state byte and a packet id"},
		{Record{Kind: KindPacket, Body: []byte{2, 0}}, pkt, "state 2"},
		{Record{Kind: KindPacket, Body: []byte{1, 0x80}}, pkt, "packet id"},
		{Record{Kind: KindPacket, Body: []byte{1, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}}, pkt, "packet id"},
		{Record{Kind: KindPosition, Body: make([]byte, 32)}, pos, "33 bytes"},
		{Record{Kind: KindPosition, Body: append(make([]byte, 32), 2)}, pos, "on-ground"},
		{Record{Kind: KindPosition, Body: Position{X: nan()}.append(nil)}, pos, "finite"},
		{Record{Kind: KindBlockClick, Body: make([]byte, 11)}, func(r Record) error { _, err := r.BlockClick(); return err }, "12 bytes"},
		{Record{Kind: KindBlockClick, Body: appendBlockClick(nil, world.Pos(1, 300, 1))}, func(r Record) error { _, err := r.BlockClick(); return err }, "0..255"},
		{Record{Kind: KindWindowClick, Body: make([]byte, 4)}, func(r Record) error { _, err := r.WindowClick(); return err }, "5 bytes"},
		{Record{Kind: KindHeld, Body: []byte{9}}, func(r Record) error { _, err := r.Held(); return err }, "0..8"},
		{Record{Kind: KindHeld, Body: []byte{1, 2}}, func(r Record) error { _, err := r.Held(); return err }, "0..8"},
		{Record{Kind: KindMods, Body: []byte("{")}, func(r Record) error { var m []proto17.ModInfo; return r.JSON(&m) }, "JSON mods"},
	}
	for _, tc := range bad {
		err := tc.read(tc.rec)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
	st, id, payload, err := Record{Kind: KindPacket, Body: []byte{1, 0xBF, 0x01, 9}}.Packet()
	require.NoError(t, err)
	assert.Equal(t, []any{StatePlay, int32(0xBF), []byte{9}}, []any{st, id, payload})
}

// contentOf decompresses a recording's content.
func contentOf(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data[len(header()):]))
	require.NoError(t, err)
	content, err := io.ReadAll(zr)
	require.NoError(t, err)
	return content
}

// killed is a recording of content that a killed run left: flushed, but
// with no end of stream.
func killed(content []byte) []byte {
	var buf bytes.Buffer
	buf.Write(header())
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(content)
	_ = zw.Flush()
	return buf.Bytes()
}

func pkt(r Record) error { _, _, _, err := r.Packet(); return err }
func pos(r Record) error { _, err := r.Position(); return err }
func nan() float64 {
	var z float64
	return z / z
}

// TestReplayOfABrokenRecording: the records that were whole are replayed,
// then the error names where the recording broke.
func TestReplayOfABrokenRecording(t *testing.T) {
	data, _, _ := recordSession(t, fakeserver.DefaultMods(), 1)
	full, err := Replay(context.Background(), bytes.NewReader(data), ReplayOptions{})
	require.NoError(t, err)
	// A run killed in the middle of a record: the content is cut there
	// and the gzip stream has no end.
	content := contentOf(t, data)
	recs, err := readAll(t, data)
	require.NoError(t, err)
	last := -1
	for i, r := range recs {
		if r.Kind == KindPacket {
			last = i
		}
	}
	require.Positive(t, last)
	cutAt := recs[last].Offset + 4
	cut := killed(content[:cutAt])
	res, err := Replay(context.Background(), bytes.NewReader(cut), ReplayOptions{})
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	assert.True(t, fe.Truncated())
	require.NotNil(t, res)
	assert.Positive(t, res.Packets["play/ChunkData"]+res.Packets["play/MapChunkBulk"], "the whole part was replayed")
	assert.Less(t, sumPlay(res.Packets), sumPlay(full.Packets))
	assert.Equal(t, recs[last].Offset, fe.Offset, "the error names where the cut record starts")
	assert.Equal(t, sumPlay(full.Packets)-1, sumPlay(res.Packets), "every packet but the cut one was replayed")
}

// TestRecorderScrubsSecrets: the operator secret, raw or JSON-escaped, is
// blanked out of recorded packets with the lengths kept.
func TestRecorderScrubsSecrets(t *testing.T) {
	var buf bytes.Buffer
	r, err := NewRecorder(&buf, RecorderOptions{})
	require.NoError(t, err)
	r.Scrub(gtnh.NewSecret(`hunter2"x`))
	r.Scrub(gtnh.NewSecret(""))
	r.Connected(gtnh.TapConnection{Username: "Bot"})
	r.Received(proto17.IDClientboundLoginSuccess, []byte("x"))
	chat, err := (&proto17.Chat{JSON: `{"text":"<Op> !bot hunter2\"x stop"}`}).AppendPayload(nil, proto17.Formats{})
	require.NoError(t, err)
	r.Received(proto17.IDClientboundChat, chat)
	raw := []byte("a hunter2\"x b hunter2\"x")
	r.Received(proto17.IDClientboundPluginMessage+1, raw)
	r.Closed()
	require.NoError(t, r.Close())
	recs, err := readAll(t, buf.Bytes())
	require.NoError(t, err)
	require.Len(t, recs, 5)
	_, id, payload, err := recs[2].Packet()
	require.NoError(t, err)
	require.Equal(t, proto17.IDClientboundChat, id)
	p, err := proto17.Decode(proto17.Play, proto17.Clientbound, id, payload, proto17.Formats{})
	require.NoError(t, err, "the lengths still fit")
	assert.Equal(t, `{"text":"<Op> !bot ********** stop"}`, p.(*proto17.Chat).JSON)
	_, _, payload, err = recs[3].Packet()
	require.NoError(t, err)
	assert.Equal(t, "a ********* b *********", string(payload))
	assert.Equal(t, "a hunter2\"x b hunter2\"x", string(raw), "the client's buffer is not touched")
	assert.NotContains(t, string(contentOf(t, buf.Bytes())), "hunter2")
}

// TestChatLinesAreBounded: the replay keeps the last MaxChatLines lines.
func TestChatLinesAreBounded(t *testing.T) {
	f := &feeder{res: &Result{}}
	for i := range MaxChatLines + 2 {
		payload, err := (&proto17.Chat{JSON: fmt.Sprintf(`{"text":"line %d"}`, i)}).AppendPayload(nil, proto17.Formats{})
		require.NoError(t, err)
		f.noteChat(payload)
	}
	f.noteChat([]byte{0xFF}) // not a chat packet: skipped
	require.Len(t, f.res.ChatLines, MaxChatLines)
	assert.Equal(t, "line 2", f.res.ChatLines[0])
	assert.Equal(t, fmt.Sprintf("line %d", MaxChatLines+1), f.res.ChatLines[MaxChatLines-1])
}
