// Package digroute plans the routes move_to falls back on when no walking
// path reaches the goal: routes that break blocks with the inventory's
// tools (a tunnel, a staircase cut into a pit's wall) and place dirt or
// cobblestone to pillar up or bridge a gap. The simulator and the live
// client plan with the same code; each answers for its own world (the
// grid, the blocks, how long a block takes to break with what it holds)
// and carries the route out its own way.
package digroute
