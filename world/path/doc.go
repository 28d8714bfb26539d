// Package path finds walking routes for a player through a voxel world.
//
// The search reads the world through [Grid], a one-method interface that
// classifies a block position as a [Cell] (passable, solid, water, danger,
// unknown, or one of the partial shapes: a low floor, a slab, a fence).
// Classes come from the collision shapes of the shared table in package
// world ([rules.KnownShape], [CellOf]), the same the simulator and the live
// client's movement use. An adapter turns a [world.BlockSource] ([BlockGrid],
// classifying blocks by their tags) into a Grid, so the pathfinder never
// sees block names or chunk storage.
//
// [Find] (or a reusable [Finder]) runs A* over player feet positions. A
// player is two blocks tall: feet and head cells must be passable or water,
// and the block below the feet solid unless the feet are in water or stand
// on a floor inside the feet cell (a carpet, or a bottom slab, which also
// needs the cell two above clear). Fences, walls and closed gates are 1.5
// high: never stood on, never jumped over, and no feet in the cell above
// them. Moves are
// walking to the 8 horizontal neighbours (diagonals only when both corner
// columns are clear, so no corner of a solid block is cut), jumping up one
// block, dropping down at most [Options.MaxDrop] blocks, and swimming; digging
// through solid blocks and placing blocks (bridging, pillaring) are optional.
//
// Costs are game ticks, derived from 1.7.10 movement physics (see [Costs]).
// The heuristic is an octile XZ distance at the cheapest horizontal cost plus
// a vertical term per block that no move undercuts, so it is admissible and
// consistent and the returned path is optimal under the cost model; with
// [Options.Weight] w > 1 (weighted A*, what the digging fallback uses: its
// heuristic prices a block as walked, while a route through stone pays for
// breaking it) the path costs at most w times the optimum and far fewer
// nodes are expanded. Ties are broken deterministically: the same grid,
// start, goal and options always give the same path.
//
// A search stops when the goal is reached, when the node or time budget runs
// out, or when every reachable position has been expanded; the two latter
// cases return the best partial path (to the expanded position closest to
// the goal by the heuristic) with [Result.Complete] false and the reason.
//
// Long routes: a [Router] keeps the exact A* as its local planner and adds
// a hierarchy in the manner of HPA*: 16×16-column regions with portals on
// their borders and cached costs between them. A route searches the portals
// (within a corridor laid out by a fast greedy pass for routes of 256
// blocks and more), then refines the portal chain with exact searches a
// window apart, so its path uses the same moves. The cache is invalidated
// per block and per chunk column; a goal in unloaded terrain gives a path
// to the best point on the frontier of the loaded columns
// ([ReachedFrontier]).
//
// Each move's cost assumes the world as the grid shows it: blocks broken or
// placed by earlier steps of the same path are not remembered, which is the
// usual approximation (Baritone makes the same one) and rarely matters since
// a path does not revisit its own cells. The one exception is the block
// under the feet after a pillar or a bridge: the position stands on it, so
// a pillar can rise several blocks (beside a wall it may step onto; a
// tower never rises into the open).
package path
