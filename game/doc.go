// Package game holds the game's nouns that every other layer shares: block
// positions and vectors ([BlockPos], [Vec3]), blocks ([Block], [BlockHit]),
// item stacks, item matchers and inventories ([ItemStack], [ItemMatcher],
// [Inventory]) and machines ([Machine], [FluidTank]).
//
// It sits at the bottom of the tree and imports nothing of the project: the
// rule tables (package rules), the chunk engine (package world/chunk) and the
// world model (package world) all speak these types, and none of them has to
// import another to do so. Package world re-exports them under the same names,
// so code that works with snapshots needs one import.
//
// Tags on a Block or an ItemStack are filled by whoever builds it (the
// chunk engine's resolver, a body, or world.NewStack from the shipped tag
// table); this package only reads them.
package game
