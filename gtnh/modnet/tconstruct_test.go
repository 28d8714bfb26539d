package modnet

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// TestPatternTableBytes pins the PatternTablePacket's bytes as
// TinkersConstruct 1.13.57-GTNH writes them: discriminator 8, x, y, z as
// big-endian ints, then the stack (item id, count, damage, no NBT).
func TestPatternTableBytes(t *testing.T) {
	p := PatternTable{X: 10, Y: -2, Z: 300, Pattern: proto17.Slot{ID: 4321, Count: 1, Damage: 2}}
	b, err := EncodePatternTable(p, proto17.Formats{})
	require.NoError(t, err)
	want := []byte{8, 0, 0, 0, 10, 0xff, 0xff, 0xff, 0xfe, 0, 0, 1, 0x2c, 0x10, 0xe1, 1, 0, 2, 0xff, 0xff}
	assert.Equal(t, want, b)
	got, err := DecodePatternTable(b, proto17.Formats{})
	require.NoError(t, err)
	assert.Equal(t, p, got)

	// An empty stack (clear the choice) is the id -1 alone.
	b, err = EncodePatternTable(PatternTable{X: 1}, proto17.Formats{})
	require.NoError(t, err)
	assert.Equal(t, []byte{8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, b)
}

// TestPatternTableErrors: another message's discriminator, a short
// payload and bytes after the stack are refused, naming the field.
func TestPatternTableErrors(t *testing.T) {
	good, err := EncodePatternTable(PatternTable{X: 1, Y: 2, Z: 3, Pattern: proto17.Slot{ID: 7, Count: 1}}, proto17.Formats{})
	require.NoError(t, err)
	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"discriminator": {append([]byte{11}, good[1:]...), "discriminator 11 is not TConstruct PatternTablePacket (8)"},
		"short":         {good[:6], "y"},
		"trailing":      {append(bytes.Clone(good), 0), "trailing"},
		"empty":         {nil, "discriminator"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := DecodePatternTable(tc.data, proto17.Formats{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func FuzzPatternTable(f *testing.F) {
	for _, p := range []PatternTable{
		{X: 10, Y: 64, Z: 8, Pattern: proto17.Slot{ID: 5010, Count: 1, Damage: 2}},
		{X: -1, Y: 0, Z: 1},
		{X: 3, Y: 4, Z: 5, Pattern: proto17.Slot{ID: 5010, Count: 1, Damage: 9, NBT: []byte{1, 2, 3}}},
	} {
		b, err := EncodePatternTable(p, proto17.Formats{})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, modularUI bool) {
		fm := proto17.Formats{ModularUI: modularUI}
		got, err := DecodePatternTable(data, fm)
		if err != nil {
			return
		}
		if len(got.Pattern.NBT) > len(data) {
			t.Fatalf("%d bytes of NBT from %d bytes", len(got.Pattern.NBT), len(data))
		}
		b, err := EncodePatternTable(got, fm)
		if err != nil {
			t.Fatalf("%+v does not encode: %v", got, err)
		}
		again, err := DecodePatternTable(b, fm)
		if err != nil || again.X != got.X || again.Y != got.Y || again.Z != got.Z || again.Pattern.ID != got.Pattern.ID ||
			again.Pattern.Count != got.Pattern.Count || again.Pattern.Damage != got.Pattern.Damage || !bytes.Equal(again.Pattern.NBT, got.Pattern.NBT) {
			t.Fatalf("%+v re-decodes to %+v, %v", got, again, err)
		}
	})
}
