// Package fakeserver is a scripted fake GTNH server (Minecraft 1.7.10 +
// Forge 10.13.4) for tests. It listens on 127.0.0.1 and plays the live
// sequence a client meets on a GTNH server, built on proto17's codecs:
//
//   - status: the server-list ping with Forge's modinfo (by default mcp, FML,
//     Forge, neid, modularui, gregtech);
//   - login: the handshake must carry the FML marker, offline login answers
//     with a hyphenated offline UUID;
//   - the FML|HS handshake of Forge 10.13.4's server state machine (REGISTER,
//     ServerHello; ClientHello and ModList; the server's ModList; the
//     registry (ModIdData, about 80 KB) as one varshort plugin message or in
//     FML|MP parts; the acks), with the client's mod list checked;
//   - the join: Join Game, brand, spawn, abilities, held slot, player list,
//     Player Position And Look at eye level, time, Window Items, health, and
//     the chunks around the spawn (Map Chunk Bulk or Chunk Data) in
//     NotEnoughIds format, or vanilla format when the mod list lacks neid;
//   - play: keep-alives (unanswered ones time the player out), movement
//     checks (stance kick, "moved too quickly" and collision resets that wait
//     for the client's confirmation), digging by 1.7.10's rule (a finish is
//     accepted after 70% of the vanilla break time for the block and held
//     item, otherwise the block is sent back), drops by the shared drop
//     table (config/drops.yaml) when the held tool harvests the block, as
//     item entities the player collects on touching them, tool wear, block
//     placement, chat;
//   - the Stone Age by the shared rules (vanilla.go): the inventory's 2×2
//     crafting grid and the crafting table's window crafting by
//     config/recipes.yaml (patterns included; the result is never sent, as
//     on a 1.7.10 server), the furnace ticking by config/smelting.yaml with
//     its window properties, mode-2 (number key) clicks, and a coke oven
//     built brick by brick forming as Railcraft forms it;
//   - a world of its own (flat, with trees) or, with Options.Terrain, a
//     simulated scenario's, block for block;
//   - the steam age (Options.CokeOvens, Boilers, Chests, Ores, WaterTanks;
//     SteamAge fills them; and IronTanks): Railcraft coke oven bricks, water
//     tank and iron tank blocks in RC tile messages (an iron tank's master
//     again after each pour), Forge's fluid id map in the handshake, GregTech coal boiler tile messages (bronze 100,
//     or steel 101 with Boiler.Steel) and ORES, each after the chunk packet
//     of its column; right-clicking a container opens it (vanilla Open
//     Window or FML OpenGui with the slot layout of config/containers.yaml),
//     mode-0 clicks are applied to the server's own containers and, with
//     none open, to the main and hotbar slots of the player's own window
//     (window 0), a water bucket
//     used on a boiler or a water tank is poured in (an empty bucket takes
//     a bucket from the tank), a boiler's window sends its steam, water
//     and temperature bars (ModularUI SWidgetUpdate, widget ids 4 to 6),
//     and a water tank's or coke oven's window its tank (window property
//     0, RC GUI_INTEGER 1 and 2).
//   - the night's dangers by config/mobs.yaml (mobs.go): a clock from
//     Options.StartTime with a Time Update every 20 ticks; Options.Mobs
//     appear at nightfall (Spawn Mob with their health in the metadata),
//     walk at the nearest player (Entity Look And Relative Move or
//     Teleport, Head Look), hit it within reach every attack interval
//     (Update Health, Entity Status 2), burn by day under the open sky;
//     Use Entity attacks hurt them by the held item with the hurt
//     resistance rule (Entity Status 2, the health in Entity Metadata, a
//     knockback), and a dead mob (Entity Status 3) drops its loot and is
//     destroyed 20 ticks later; a player at 0 health dies (Entity Status
//     3), drops its inventory (picked up after 40 ticks) and is respawned
//     at the spawn on Client Status 0 (Respawn, position, health, window,
//     chunks, items and mobs again); dropped items despawn after 6000
//     ticks. Player Digging's drop statuses (3 the held stack, 4 one item)
//     throw from the held slot along the player's yaw (Set Slot for that
//     slot; the item where path.Throw brings it to rest, picked up after
//     40 ticks; Tossed lists them).
//
// Options turn on faults for failure tests: a wrong FML handshake order, a
// packet cut short (inside its frame, or the frame itself), a kick and a
// stall (nothing sent for a while) at a chosen stage, once per connection or
// once in the server's life; and a hostile mode that sends decompression
// and allocation bombs while the player plays. Restart stops and restarts
// the server on the same port, keeping the world and the players' saved
// inventories and positions. The server records every packet it receives
// and sends, the block changes, its digging verdicts, position resets, kicks
// and faults, every refused click, placement, dig or move (Refusals), the
// crafts, smelts and coke ovens formed; WaitFor waits for a condition on them without sleeping.
//
// The package is test support: only tests may import it (a test in this
// package checks the module for other importers).
package fakeserver
