// Package config embeds the shipped data files: skill specs (skills/*.yaml),
// knowledge skill directories (skills/<name>/SKILL.md with their resources;
// go:embed leaves out files starting with "." or "_", so .skill_id sidecars
// are never embedded), skill packs (skill_packs/) and the tables the world
// model reads (tiers.yaml, tags.yaml, recipes.yaml, vanilla_ids.yaml,
// tech.yaml, blueprints.yaml, ores.yaml, smelting.yaml, coke_oven.yaml, crafting_tools.yaml, food.yaml, mobs.yaml) and the mod data the game client reads (gregtech.yaml,
// containers.yaml). The binary runs on these when no directory is given.
package config

import "embed"

// FS holds the shipped configuration tree, rooted at this directory.
//
//go:embed skills skill_packs tiers.yaml tags.yaml recipes.yaml mining.yaml drops.yaml smelting.yaml coke_oven.yaml crafting_tools.yaml food.yaml mobs.yaml vanilla_ids.yaml tech.yaml blueprints.yaml gregtech.yaml containers.yaml ores.yaml
var FS embed.FS
