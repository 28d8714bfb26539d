package modnet

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// bqSync is a quest_sync as NetQuestSync.sendSync writes it: two quests
// with progress (one completed by two players), one without an id.
func bqSync(merge bool) proto17.Compound {
	done := proto17.List{Type: proto17.TagCompound, Values: []any{
		proto17.Compound{"uuid": "0F4D9C2E-0000-4000-8000-00000000AAAA", "claimed": int8(0), "timestamp": int64(1700000000000)},
		proto17.Compound{"uuid": "11111111-2222-4333-8444-555555555555", "timestamp": int64(1)},
	}}
	m := int8(0)
	if merge {
		m = 1
	}
	return proto17.Compound{
		"ID":              BQQuestSync,
		"merge":           m,
		"resetCompletion": int8(1),
		"data": proto17.List{Type: proto17.TagCompound, Values: []any{
			proto17.Compound{"questIDHigh": int64(0), "questIDLow": int64(15), "progress": proto17.Compound{"completed": done, "tasks": proto17.List{Type: proto17.TagCompound}}},
			proto17.Compound{"questIDHigh": int64(0), "questIDLow": int64(17), "progress": proto17.Compound{"completed": proto17.List{Type: proto17.TagEnd}}},
			proto17.Compound{"config": proto17.Compound{}},
		}},
	}
}

func TestBQQuestSyncRoundTrip(t *testing.T) {
	payloads, err := SplitBQMessage(bqSync(true))
	require.NoError(t, err)
	require.Len(t, payloads, 1, "a small message is one piece")
	var a BQAssembler
	p, err := DecodeBQPiece(payloads[0])
	require.NoError(t, err)
	assert.True(t, p.End)
	assert.Zero(t, p.Index)
	gz, done, err := a.Feed(p)
	require.NoError(t, err)
	require.True(t, done)
	id, msg, err := DecodeBQMessage(gz)
	require.NoError(t, err)
	assert.Equal(t, BQQuestSync, id)
	sync, err := DecodeBQQuestSync(msg)
	require.NoError(t, err)
	assert.True(t, sync.Merge)
	assert.True(t, sync.ResetCompletion)
	assert.Equal(t, []BQQuestProgress{
		{High: 0, Low: 15, HasProgress: true, Completed: []string{"0f4d9c2e-0000-4000-8000-00000000aaaa", "11111111-2222-4333-8444-555555555555"}},
		{High: 0, Low: 17, HasProgress: true},
	}, sync.Quests, "the quest without an id is skipped, UUIDs are lower-cased")

	_, err = DecodeBQQuestSync(BQQuestSyncRequest(false, true))
	assert.ErrorContains(t, err, "data is not a list", "a request has no data")
}

// TestBQLargeMessageIsSplitAndReassembled: a message whose gzip passes
// 20,480 bytes comes in pieces with running indexes, the last one marked.
func TestBQLargeMessageIsSplitAndReassembled(t *testing.T) {
	noise := make([]byte, 50000) // random bytes do not compress
	_, _ = rand.Read(noise)
	payloads, err := SplitBQMessage(proto17.Compound{"ID": "betterquesting:other", "blob": noise})
	require.NoError(t, err)
	require.Len(t, payloads, 3)
	var a BQAssembler
	for i, pl := range payloads {
		p, err := DecodeBQPiece(pl)
		require.NoError(t, err)
		assert.Equal(t, int32(i*BQPieceSize), p.Index)
		gz, done, err := a.Feed(p)
		require.NoError(t, err)
		assert.Equal(t, i == 2, done)
		if done {
			id, msg, err := DecodeBQMessage(gz)
			require.NoError(t, err)
			assert.Equal(t, "betterquesting:other", id)
			assert.True(t, bytes.Equal(noise, msg["blob"].([]byte)))
		}
	}
}

func TestBQAssemblerRefusesBrokenSequences(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces []BQPiece
		want   string
	}{
		{"size over the cap", []BQPiece{{Size: MaxBQMessage + 1, Data: []byte{1}}}, "at most"},
		{"no size", []BQPiece{{Size: 0, End: true}}, "a message of 0 bytes"},
		{"gap", []BQPiece{{Size: 10, Data: []byte{1, 2}}, {Size: 10, Index: 5, Data: []byte{3}}}, "expected byte 2"},
		{"size changes", []BQPiece{{Size: 10, Data: []byte{1, 2}}, {Size: 11, Index: 2, Data: []byte{3}}}, "size changed"},
		{"past the size", []BQPiece{{Size: 3, Data: []byte{1, 2, 3, 4}}}, "pass the size"},
		{"ends short", []BQPiece{{Size: 3, Data: []byte{1}, End: true}}, "ends at byte 1 of 3"},
		{"restart mid-way", []BQPiece{{Size: 3, Data: []byte{1}}, {Size: 3, Data: []byte{1}}}, "new message began"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a BQAssembler
			var err error
			for _, p := range tc.pieces {
				if _, _, err = a.Feed(p); err != nil {
					break
				}
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			// The broken message is dropped: a new one assembles.
			gz, done, err := a.Feed(BQPiece{Size: 2, Data: []byte{7, 8}, End: true})
			require.NoError(t, err)
			assert.True(t, done)
			assert.Equal(t, []byte{7, 8}, gz)
		})
	}
}

func TestDecodeBQPieceErrors(t *testing.T) {
	good, err := EncodeBQPiece(BQPiece{Size: 1, Data: []byte{9}, End: true})
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		payload []byte
		want    string
	}{
		{"another discriminator", append([]byte{1}, good[1:]...), "discriminator 1"},
		{"no compound", []byte{0, 0xff, 0xff}, "no compound"},
		{"cut short", good[:len(good)-3], "nbt"},
		{"trailing bytes", append(append([]byte(nil), good...), 0), "end"},
		{"not gzip", []byte{0, 0, 3, 1, 2, 3}, "gzip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeBQPiece(tc.payload)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	gz, err := (&proto17.NBT{Root: proto17.Compound{"size": int32(1), "index": int32(0), "end": int8(1)}}).Gzip()
	require.NoError(t, err)
	_, err = DecodeBQPiece(append([]byte{0, byte(len(gz) >> 8), byte(len(gz))}, gz...))
	assert.ErrorContains(t, err, "data is not a byte array")
}

func TestDecodeBQMessageNeedsAnID(t *testing.T) {
	gz, err := (&proto17.NBT{Root: proto17.Compound{"data": int8(1)}}).Gzip()
	require.NoError(t, err)
	_, _, err = DecodeBQMessage(gz)
	assert.ErrorContains(t, err, "ID is not a string")
	_, _, err = DecodeBQMessage([]byte("not gzip"))
	assert.True(t, err != nil && strings.Contains(err.Error(), "gzip"), "%v", err)
}
