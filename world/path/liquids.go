package path

import (
	"math"

	"github.com/gtnh-agent/gtnh-agent/world"
)

// eyeHeight is how far above the feet a player's eyes are
// (EntityPlayer.getEyeHeight, 1.62): what is there decides whether it
// breathes.
const eyeHeight = 1.62

// IsLava reports whether a block is lava, still or flowing (by its "lava"
// tag or its vanilla id).
func IsLava(b world.Block) bool {
	return b.HasTag("lava") || b.ID == "minecraft:lava" || b.ID == "minecraft:flowing_lava"
}

// InLava reports whether the player's body touches lava: its feet's block
// or the one above.
func InLava(w *world.Snapshot) bool {
	feet := w.Feet()
	return IsLava(w.BlockAt(feet)) || IsLava(w.BlockAt(feet.Up()))
}

// EyesInWater reports whether the player's eyes are in water (or another
// liquid the path finder swims in): where a 1.7.10 player's air supply
// runs down.
func EyesInWater(w *world.Snapshot) bool {
	p := w.Player.Pos
	eyes := world.Pos(int(math.Floor(p.X)), int(math.Floor(p.Y+eyeHeight)), int(math.Floor(p.Z)))
	return ClassifyByTags(w.BlockAt(eyes)) == Water
}
