package memory

import (
	"testing"

	"github.com/gtnh-agent/gtnh-agent/game"
)

// FuzzRecords: whatever bytes a memory file holds where a sighting, its key
// or a JSON record should be, reading them is a value or an error, never a
// panic, and a sighting read back encodes to the same bytes.
func FuzzRecords(f *testing.F) {
	f.Add(posKey(game.Pos(1, 2, 3)), encodeSighting(Sighting{Meta: 3, Tick: 7, seq: 1}), []byte(`{"kind":"chest","items":[{"id":"minecraft:flint","count":3}]}`))
	f.Add([]byte{1, 2}, []byte{0xff, 0xff, 0xff, 0xff}, []byte(`{"kind":`))
	f.Add(make([]byte, 12), make([]byte, sightingSize), []byte(`{"name":"base","pos":{"x":1,"y":2,"z":3}}`))
	f.Fuzz(func(t *testing.T, key, value, record []byte) {
		if sg, err := decodeSighting("minecraft:log", key, value); err == nil {
			if string(encodeSighting(sg)) != string(value) || string(posKey(sg.Pos)) != string(key) {
				t.Fatalf("sighting %+v does not encode back to %x / %x", sg, key, value)
			}
		}
		var c Container
		_ = decodeJSON("container", record, &c)
		var w Waypoint
		_ = decodeJSON("waypoint", record, &w)
		var d Death
		_ = decodeJSON("death", record, &d)
		var sh Shelter
		_ = decodeJSON("shelter", record, &sh)
	})
}
