// Package modnet decodes the mod messages a GTNH server sends outside the
// vanilla protocol: GregTech's "GregTech" channel (machine tile data, batched
// block events, ore materials), Railcraft's "RC" channel (coke oven and
// water tank state, tank amounts of open windows), and FML's OpenGui message
// on the "FML" channel, which opens every mod GUI that has a container
// (Railcraft, Iron Chests, ModularUI).
//
// Every decoder is pure and bounded: it reads only the bytes given, sizes its
// allocations by the bytes present, and reports a *proto17.Error that names
// the message and the field on short, overlong or invalid input. Formats that
// changed between GregTech versions are chosen by GregTechFormats from the
// version string in the server's mod list; versions it does not know are an
// error, never a guess.
//
// The data these messages refer to (which machine a GregTech meta tile
// entity id is, which ore a material id is, which container slot is which)
// lives in embedded data files (config/gregtech.yaml, config/containers.yaml)
// and is loaded by LoadData. Sources for every fact are in
// docs/gtnh-protocol.md.
package modnet
