// Package mapview draws the world model from above: the map picture of
// agent map (a PNG) and the data the live web view sends to the browser.
//
// Extract reads a world.Snapshot over an Area (a square around a centre, or
// bounds) and returns a Map: for every column the top visible block at or
// below an optional depth limit (MaxY), as an index into the Map's table of
// Looks (a kind, a label and a colour from the palette), and its height for
// shading; plus Markers: the bot and its facing, machines, ores, the planned
// path of a move, digs and placements (what the caller knows beyond the
// snapshot arrives in an Overlay). Every type is JSON-friendly, so a web page
// can draw the same map the PNG shows: a column's colour is
// Looks[K].Color scaled by Shade(Y, the Y of the column to its north).
//
// Render turns a Map into an image (Scale pixels per block, height shading,
// markers, a scale bar of one chunk under the map) and WritePNG encodes it
// with the standard library. Sizes are bounded: an area is at most MaxSide
// blocks on a side and an image at most MaxPixels pixels on a side, and
// anything larger is an error that says what to lower.
//
// The package reads snapshots only; it knows no body, planner or loop.
package mapview
