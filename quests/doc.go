// Package quests reads a BetterQuesting quest database, the quest book GTNH
// ships in config/betterquesting/DefaultQuests, and turns quests into goals
// the agent can check from its world model.
//
// Two layouts are read ([Load] tells them apart):
//
//   - the per-quest-file layout of current GTNH (2.7 and later): a
//     DefaultQuests directory holding Quests/<folder>/<name>-<id>.json (one
//     quest per file), QuestLines/<line>/QuestLine.json with the line's
//     properties, one file per quest placed in the line, and
//     QuestLinesOrder.txt with the lines in book order;
//   - the single DefaultQuests.json of older packs: questDatabase and
//     questLines in one file, quests keyed by a number (questID) or by a
//     UUID's two halves (questIDHigh, questIDLow).
//
// Both are NBT written as JSON: every key carries its NBT type after a
// colon ("name:8" a string, "Count:3" an int, "tasks:9" a list,
// "properties:10" a compound, "preRequisites:11" an int array). A quest's
// identity is a UUID; a numeric id n is the UUID with n in its low half,
// which is how GTNH converted its old book, so both layouts name quests the
// same way ([ID.String], URL-safe base64 as in GTNH's file names).
//
// The database is untrusted input: file sizes and counts are bounded, every
// problem names its file and the JSON path within it, a task type the
// package does not know is listed in [Book.Problems] and never stops the
// rest from loading.
//
// [Stages] turns a quest (after its prerequisites) or a whole line into
// [loop.QuestStage]s: item goals for the tasks the world model can check
// (retrieval, crafting, block breaking), a reason to skip for the rest.
package quests
