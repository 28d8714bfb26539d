// Package chain is the chaining goal planner (--planner goal): Planner
// works backwards from the goal through the skills' declared effects and
// preconditions, the recipe book and the tier evidence, and runs skills the
// goal names.
package chain
