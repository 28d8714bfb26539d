// Package recipebook reads the recipes of a player's own modpack and keeps
// them in a compact file the agent loads.
//
// Two recipe-dump formats made by GTNH exporters are read: GuineaUtil's
// "/gutil dump" (one JSON file per NEI handler, [ReadGuineaUtil]) and
// GTNewHorizons' RecEx (one JSON file, [ReadRecEx]). [Import] picks the
// reader and returns a [Book] with a [Summary] of what was kept and what was
// dropped and why.
//
// A Book is written with [Write] and read back with [Read]: a versioned
// binary file with its strings interned, every recipe checked when read
// (the file is untrusted bytes). [Recipe.Crafting] maps a crafting recipe
// onto the agent's recipe model (rules.Recipe).
//
// Items are named as the agent names them: "modid:name" (any metadata, or
// metadata 0 for an output), "modid:name:meta", or "ore:Name" for an
// ore-dictionary entry. Ingredients that stay in the crafting grid and take
// damage (a knife, a mortar, a saw, the wooden brick form) are marked as
// tools and are not consumed.
package recipebook
