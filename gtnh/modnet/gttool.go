package modnet

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// A GregTech tool (MetaGeneratedTool: gregtech:gt.metatool.01, the tool id
// in the metadata) keeps its wear in its NBT, not in the item damage:
// GT5-Unofficial 5.09.51 api/items/MetaGeneratedTool.getToolWithStats
// writes the compound "GT.ToolStats" with MaxDamage (a long: 100 × the
// primary material's durability), PrimaryMaterial and SecondaryMaterial
// (the materials' names); setToolDamage writes Damage (a long) there as
// the tool wears. A client predicting a crafted or worn tool must send the
// same NBT the server holds: ItemStack.areItemStacksEqual compares tags, and
// NetHandlerPlayServer.processClickWindow refuses a click whose stack
// differs.

// GTToolStatsKey is the compound of a GregTech tool's stats.
const GTToolStatsKey = "GT.ToolStats"

// GTTool is a GregTech tool's stats as its NBT carries them.
type GTTool struct {
	Primary, Secondary string
	MaxDamage          int64
	// Damage is the wear so far; HasDamage is false for a new tool, whose
	// NBT has no Damage tag until it first wears.
	Damage    int64
	HasDamage bool
}

// NBT encodes the tool's stats as an item's gzipped NBT.
func (t GTTool) NBT() ([]byte, error) {
	stats := proto17.Compound{
		"MaxDamage":         t.MaxDamage,
		"PrimaryMaterial":   t.Primary,
		"SecondaryMaterial": t.Secondary,
	}
	if t.HasDamage {
		stats["Damage"] = t.Damage
	}
	n := proto17.NBT{Root: proto17.Compound{GTToolStatsKey: stats}}
	return n.Gzip()
}

// ParseGTTool reads a GregTech tool's stats from an item's gzipped NBT.
func ParseGTTool(gz []byte) (GTTool, error) {
	n, err := proto17.DecodeGzipNBT(gz)
	if err != nil {
		return GTTool{}, err
	}
	stats, ok := n.Root[GTToolStatsKey].(proto17.Compound)
	if !ok {
		return GTTool{}, fmt.Errorf("gregtech tool: no %s compound", GTToolStatsKey)
	}
	var t GTTool
	if t.MaxDamage, ok = stats["MaxDamage"].(int64); !ok || t.MaxDamage <= 0 {
		return GTTool{}, fmt.Errorf("gregtech tool: %s.MaxDamage is missing or not a positive long", GTToolStatsKey)
	}
	t.Primary, _ = stats["PrimaryMaterial"].(string)
	t.Secondary, _ = stats["SecondaryMaterial"].(string)
	if v, present := stats["Damage"]; present {
		if t.Damage, ok = v.(int64); !ok {
			return GTTool{}, fmt.Errorf("gregtech tool: %s.Damage is not a long", GTToolStatsKey)
		}
		t.HasDamage = true
	}
	return t, nil
}

// SameNBT reports whether two items' gzipped NBT hold the same tags (as
// ItemStack.areItemStackTagsEqual compares them: by value, not by their
// bytes). NBT that does not decode equals only the same bytes.
func SameNBT(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == 0 && len(b) == 0
	}
	na, errA := proto17.DecodeGzipNBT(a)
	nb, errB := proto17.DecodeGzipNBT(b)
	if errA != nil || errB != nil {
		return string(a) == string(b)
	}
	ra, errA := na.Bytes()
	rb, errB := nb.Bytes()
	return errA == nil && errB == nil && string(ra) == string(rb)
}
