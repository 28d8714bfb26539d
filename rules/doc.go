// Package rules holds the game's rules and data tables, each parsed from a
// data file shipped in package config and cited to its source there:
//
//   - ids: [IDMap] names numeric block and item ids (the server's registry,
//     or the shipped vanilla 1.7.10 map, config/vanilla_ids.yaml);
//   - tags: [TagTable] gives blocks semantic tags such as "log", "tree" or
//     "water", and items ore-dictionary names ("ore:logWood") and tool
//     classes ("tool:axe") (config/tags.yaml);
//   - recipes: [Recipes], the crafting-grid recipe book (config/recipes.yaml);
//   - mining: [MiningRules], how blocks break (hardness, tool class, harvest
//     level, tool materials, wear; config/mining.yaml);
//   - drops: [Drops], what a harvested block gives (GTNH's gravel never
//     flint; config/drops.yaml);
//   - shapes: [KnownShape], the 1.7.10 collision boxes of slabs, snow,
//     carpets, trapdoors, doors, fences, walls and gates;
//   - tiers: [Tiers], the GTNH tech tiers in order (config/tiers.yaml);
//   - food: [Food], the food bar (FoodStats), what actions cost it and
//     what foods give back (config/food.yaml);
//   - mobs: [Mobs], the day and its light, where hostile mobs spawn, how
//     they move and hit, what the player deals and what a death costs
//     (config/mobs.yaml);
//   - tech: [TechRules], the evidence that shows a tier is reached
//     (config/tech.yaml);
//   - names: [Names], every item, block and tag name the tables know, for
//     checking names in goals and specs with a did-you-mean hint.
//
// The package sits just above package game and below everything else: the
// chunk engine, the world model, the simulator, the live client, skills
// and planners all read it; it imports none of them. It is where recipe,
// quest and crafting data grow. Each Default* function returns one shipped
// table.
package rules
