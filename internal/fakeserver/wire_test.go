package fakeserver

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/internal/race"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world/chunk"
)

func TestFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	for _, n := range []int{0, 1, 126, 127, 128, 16383, 16384, 70000} {
		payload := bytes.Repeat([]byte{byte(n)}, n)
		b, err := frame(0x3F, payload)
		require.NoError(t, err)
		buf.Write(b)
	}
	br := bufio.NewReader(&buf)
	for _, n := range []int{0, 1, 126, 127, 128, 16383, 16384, 70000} {
		id, payload, err := readFrame(br)
		require.NoError(t, err)
		assert.Equal(t, int32(0x3F), id)
		assert.Len(t, payload, n)
	}
	_, err := frame(1, make([]byte, maxFrame))
	assert.ErrorContains(t, err, "frame limit")
	_, _, err = readFrame(bufio.NewReader(bytes.NewReader([]byte{0xFF, 0xFF, 0xFF, 0x01})))
	assert.ErrorContains(t, err, "VarInt longer than 3 bytes")
	_, _, err = readFrame(bufio.NewReader(bytes.NewReader([]byte{5, 1, 2})))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "a frame cut short")
	_, _, err = readFrame(bufio.NewReader(bytes.NewReader(nil)))
	assert.ErrorIs(t, err, io.EOF, "the stream ended between frames")
}

// randomColumn fills some sections with random states that fit the format.
func randomColumn(rng *rand.Rand, neid bool) *chunk.Column {
	col := chunk.NewColumn(rng.IntN(64)-32, rng.IntN(64)-32)
	maxID, maxMeta := 4095, 15
	if neid {
		maxID, maxMeta = 65535, 65535
	}
	for cy := 0; cy < chunk.ColumnSections; cy++ {
		switch rng.IntN(3) {
		case 0: // left empty
		case 1: // a few blocks
			for range 20 {
				col.SetState(rng.IntN(16), cy*16+rng.IntN(16), rng.IntN(16), chunk.MakeState(1+rng.IntN(maxID), rng.IntN(maxMeta+1)))
			}
		case 2: // dense, small ids only (no add nibbles in vanilla)
			for x := 0; x < 16; x++ {
				for y := 0; y < 16; y++ {
					for z := 0; z < 16; z++ {
						col.SetState(x, cy*16+y, z, chunk.MakeState(rng.IntN(256), rng.IntN(16)))
					}
				}
			}
		}
	}
	return col
}

// TestChunkEncodingRoundTrips checks the local chunk encoder against
// proto17's decoder, in both formats and both packet kinds.
func TestChunkEncodingRoundTrips(t *testing.T) {
	race.SkipOneGoroutine(t, "encoding and decoding random full columns")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, neid := range []bool{false, true} {
		f := proto17.Formats{NEID: neid}
		for _, mode := range []ChunkMode{ChunksBulk, ChunksSingle} {
			cols := make([]*chunk.Column, 7)
			for i := range cols {
				cols[i] = randomColumn(rng, neid)
			}
			pkts, err := chunkPackets(cols, f, mode)
			require.NoError(t, err)
			dec := proto17.NewChunkDecoder(f)
			var got []proto17.ChunkColumn
			for _, p := range pkts {
				// Through the wire codec too.
				payload, err := proto17.Payload(p, f)
				require.NoError(t, err)
				q, err := proto17.Decode(proto17.Play, proto17.Clientbound, p.PacketID(), payload, f)
				require.NoError(t, err)
				switch q := q.(type) {
				case *proto17.ChunkData:
					c, err := dec.ChunkData(q, true)
					require.NoError(t, err)
					got = append(got, c)
				case *proto17.MapChunkBulk:
					assert.LessOrEqual(t, len(q.Columns), 5)
					got, err = dec.MapChunkBulk(got, q)
					require.NoError(t, err)
				}
			}
			require.Len(t, got, len(cols))
			for i, c := range got {
				want := cols[i]
				require.Equal(t, want.Pos(), chunk.ChunkPos{X: c.X, Z: c.Z})
				for cy := 0; cy < chunk.ColumnSections; cy++ {
					ws, gs := want.Section(cy), c.Column.Section(cy)
					if ws == nil {
						assert.Nil(t, gs, "column %d section %d", i, cy)
						continue
					}
					require.NotNil(t, gs, "column %d section %d", i, cy)
					var a, b [chunk.SectionVolume]chunk.StateID
					ws.States(&a)
					gs.States(&b)
					require.Equal(t, a, b, "neid=%t mode=%d column %d section %d", neid, mode, i, cy)
				}
			}
		}
	}

	col := chunk.NewColumn(0, 0)
	col.SetState(0, 0, 0, chunk.MakeState(5000, 0))
	_, err := chunkPackets([]*chunk.Column{col}, proto17.Formats{}, ChunksSingle)
	assert.Error(t, err, "an id above 4095 does not fit the vanilla chunk format")
}
