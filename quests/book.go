package quests

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// ID is a quest's or a quest line's identity: a UUID as BetterQuesting
// stores it, two signed halves.
type ID struct{ High, Low int64 }

// String is the UUID's 16 bytes in URL-safe base64, as GTNH names its
// files ("AAAAAAAAAAAAAAAAAAAAAQ==" is the quest with id 1).
func (id ID) String() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(id.High))
	binary.BigEndian.PutUint64(b[8:], uint64(id.Low))
	return base64.URLEncoding.EncodeToString(b[:])
}

// ParseID reads an ID written by String (the standard alphabet's + and /
// are accepted too) or a plain number (an old book's questID).
func ParseID(s string) (ID, bool) {
	var n int64
	if _, err := fmt.Sscanf(s, "%d", &n); err == nil && fmt.Sprint(n) == s {
		return ID{Low: n}, true
	}
	s = strings.NewReplacer("+", "-", "/", "_").Replace(s)
	b, err := base64.URLEncoding.DecodeString(s)
	if err != nil || len(b) != 16 {
		return ID{}, false
	}
	return ID{High: int64(binary.BigEndian.Uint64(b[:8])), Low: int64(binary.BigEndian.Uint64(b[8:]))}, true
}

// Task types of BetterQuesting's standard set (bq_standard).
const (
	TaskRetrieval         = "bq_standard:retrieval"
	TaskOptionalRetrieval = "bq_standard:optional_retrieval"
	TaskCrafting          = "bq_standard:crafting"
	TaskBlockBreak        = "bq_standard:block_break"
	TaskCheckbox          = "bq_standard:checkbox"
	TaskHunt              = "bq_standard:hunt"
	TaskLocation          = "bq_standard:location"
	TaskFluid             = "bq_standard:fluid"
	TaskXP                = "bq_standard:xp"
	TaskMeeting           = "bq_standard:meeting"
	TaskScoreboard        = "bq_standard:scoreboard"
	TaskInteractEntity    = "bq_standard:interact_entity"
	TaskInteractItem      = "bq_standard:interact_item"
)

// knownTasks are the task types this package reads; any other is listed in
// Book.Problems and kept as a task the agent cannot do.
var knownTasks = map[string]bool{
	TaskRetrieval: true, TaskOptionalRetrieval: true, TaskCrafting: true, TaskBlockBreak: true,
	TaskCheckbox: true, TaskHunt: true, TaskLocation: true, TaskFluid: true, TaskXP: true,
	TaskMeeting: true, TaskScoreboard: true, TaskInteractEntity: true, TaskInteractItem: true,
}

// Wildcard is the damage value that matches every metadata.
const Wildcard = 32767

// Item is an item a task asks for.
type Item struct {
	// ID is the registry name ("minecraft:flint", "TConstruct:pickaxe").
	ID string `json:"id"`
	// Damage is the metadata (Wildcard: any).
	Damage int `json:"damage"`
	// OreDict, when set, is an ore-dictionary name any of whose items
	// counts ("plankWood").
	OreDict string `json:"ore_dict,omitempty"`
	Count   int    `json:"count"`
}

// Matcher is the item as the agent names it: "ore:NAME" for an
// ore-dictionary entry, "modid:name" for metadata 0 or any, else
// "modid:name:meta".
func (it Item) Matcher() string {
	if it.OreDict != "" {
		return "ore:" + it.OreDict
	}
	return it.StackMatcher()
}

// StackMatcher is the item stack itself, without its ore-dictionary name:
// "modid:name" for metadata 0 or any, else "modid:name:meta".
// BetterQuesting counts a stack that matches either (GTNewHorizons/
// BetterQuesting, src/main/java/bq_standard/tasks/TaskRetrieval.java and
// TaskCrafting.java: ItemComparison.StackMatch(rStack.getBaseStack(), …) ||
// ItemComparison.OreDictionaryMatch(rStack.getOreIngredient(), …)).
func (it Item) StackMatcher() string {
	if it.Damage == 0 || it.Damage == Wildcard {
		return it.ID
	}
	return fmt.Sprintf("%s:%d", it.ID, it.Damage)
}

// Task is one task of a quest.
type Task struct {
	// Type is the task's type id ("bq_standard:retrieval").
	Type string `json:"type"`
	// Index is the task's id in its quest, as the server's BetterQuesting
	// names it in its messages (a checkbox click names the task by it).
	Index int `json:"index"`
	// Items: the items of a retrieval, crafting or block-breaking task (for
	// block breaking, the blocks).
	Items []Item `json:"items,omitempty"`
	// Consume: a retrieval task takes the items when submitted.
	Consume bool `json:"consume,omitempty"`
	// Target: what a hunt, location or interaction task names (an entity,
	// a place), for display.
	Target string `json:"target,omitempty"`
	// Count: how many a hunt task wants, or the levels of an XP task.
	Count int `json:"count,omitempty"`
	// DamageType: a hunt task that counts only kills by this kind of
	// damage ("arrow"); empty for any.
	DamageType string `json:"damage_type,omitempty"`
}

// Reward types of BetterQuesting's standard set (bq_standard) that give
// items.
const (
	RewardItem   = "bq_standard:item"
	RewardChoice = "bq_standard:choice"
)

// Reward is one reward of a quest: items given when the player claims the
// quest in the book (GTNewHorizons/BetterQuesting, src/main/java/
// bq_standard/rewards/RewardItem.java: every item; RewardChoice.java: the
// one item the player picked). Other reward types (experience, commands,
// loot chests) give nothing the agent models and keep only their type.
type Reward struct {
	// Type is the reward's id ("bq_standard:item").
	Type string `json:"type"`
	// Index is the reward's id in its quest, as BetterQuesting's messages
	// name it (a choice is made by it).
	Index int `json:"index"`
	// Items: what an item reward gives, or the options of a choice.
	Items []Item `json:"items,omitempty"`
}

// Choice reports whether the player picks one of the items.
func (r Reward) Choice() bool { return r.Type == RewardChoice }

// Optional reports whether the task does not count towards the quest
// (BetterQuesting's optional retrieval is ignored when the quest is
// judged complete).
func (t Task) Optional() bool { return t.Type == TaskOptionalRetrieval }

// Quest is one quest of the book.
type Quest struct {
	ID ID `json:"id"`
	// Name is the quest's title without Minecraft's formatting codes.
	Name string `json:"name"`
	// Prereqs are the quests that must be complete first.
	Prereqs []ID `json:"prereqs,omitempty"`
	// AnyPrereq: the quest logic is OR (one prerequisite is enough).
	AnyPrereq bool `json:"any_prereq,omitempty"`
	// AnyTask: the task logic is OR (one task is enough).
	AnyTask bool   `json:"any_task,omitempty"`
	Tasks   []Task `json:"tasks,omitempty"`
	// Rewards are what the quest gives when claimed.
	Rewards []Reward `json:"rewards,omitempty"`
	// Lines are the names of the lines that place the quest.
	Lines []string `json:"lines,omitempty"`
	// File is where the quest was read.
	File string `json:"file"`
}

// Line is a quest line (a chapter of the book).
type Line struct {
	ID     ID     `json:"id"`
	Name   string `json:"name"`
	Quests []ID   `json:"quests"`
}

// Book is a quest database.
type Book struct {
	// Source is the path Load read.
	Source string
	// Lines in book order.
	Lines  []*Line
	quests map[ID]*Quest
	order  []ID // the quests in the order they were read
	// Problems are what was skipped: a file that did not parse, a task of
	// an unknown type, a line naming a quest that does not exist. A book
	// with problems is still usable for what did load.
	Problems []error
}

// Quest returns the quest with the id.
func (b *Book) Quest(id ID) (*Quest, bool) {
	q, ok := b.quests[id]
	return q, ok
}

// Quests returns every quest in the order read.
func (b *Book) Quests() []*Quest {
	out := make([]*Quest, 0, len(b.order))
	for _, id := range b.order {
		out = append(out, b.quests[id])
	}
	return out
}

// CleanName strips Minecraft's formatting codes ("§9§l") and spaces.
func CleanName(s string) string { return strings.TrimSpace(proto17.StripFormatting(s)) }

// readID reads an id: the two halves (prefix+"High", prefix+"Low") or an
// old book's number (num).
func readID(c compound, prefix, num string) (ID, bool) {
	if c.has(prefix+"High") || c.has(prefix+"Low") {
		return ID{High: c.int64(prefix+"High", 0), Low: c.int64(prefix+"Low", 0)}, true
	}
	if num != "" && c.has(num) {
		return ID{Low: c.int64(num, 0)}, true
	}
	return ID{}, false
}

// decodeQuest reads one quest compound.
func decodeQuest(c compound) (*Quest, bool) {
	id, ok := readID(c, "questID", "questID")
	if !ok {
		c.errorf("", "a quest needs questIDHigh and questIDLow (or questID)")
		return nil, false
	}
	q := &Quest{ID: id, File: c.file}
	if props, ok := c.child("properties"); ok {
		if bq, ok := props.child("betterquesting"); ok {
			q.Name = CleanName(bq.str("name"))
			q.AnyPrereq = strings.EqualFold(bq.str("questLogic"), "OR")
			q.AnyTask = strings.EqualFold(bq.str("taskLogic"), "OR")
		}
	}
	if q.Name == "" {
		q.Name = id.String()
	}
	if _, v, ok := c.lookup("preRequisites"); ok {
		if isIntArray(v) {
			for _, n := range c.ints("preRequisites") {
				q.Prereqs = append(q.Prereqs, ID{Low: n})
			}
		} else {
			for _, p := range c.list("preRequisites") {
				if pid, ok := readID(p, "questID", "questID"); ok {
					q.Prereqs = append(q.Prereqs, pid)
				} else {
					p.errorf("", "a prerequisite needs questIDHigh and questIDLow")
				}
			}
		}
	}
	tasks := c.list("tasks")
	for _, t := range tasks {
		q.Tasks = append(q.Tasks, decodeTask(t))
	}
	for i, n := range entryIDs(tasks) {
		q.Tasks[i].Index = n
	}
	rewards := c.list("rewards")
	for _, r := range rewards {
		q.Rewards = append(q.Rewards, decodeReward(r))
	}
	for i, n := range entryIDs(rewards) {
		q.Rewards[i].Index = n
	}
	return q, true
}

// entryIDs are the ids BetterQuesting gives a quest's tasks or rewards as
// it reads them (GTNewHorizons/BetterQuesting at 479fd81,
// src/main/java/betterquesting/questing/tasks/TaskStorage.java and
// rewards/RewardStorage.java readFromNBT): an entry's own "index" when it
// has one (the first of a repeated id wins), and the entries without one,
// in order, the lowest ids still free (SimpleDatabase.nextID:
// idMap.nextClearBit(0)). An id already taken is -1: no message can name
// that entry.
func entryIDs(cs []compound) []int {
	own := make([]int, len(cs))
	out := make([]int, len(cs))
	used := map[int]bool{}
	for i, e := range cs {
		own[i], out[i] = -1, -1
		if e.has("index") {
			own[i] = e.int("index", -1)
		}
		if n := own[i]; n >= 0 && !used[n] {
			used[n] = true
			out[i] = n
		}
	}
	next := 0
	for i := range cs {
		if own[i] >= 0 {
			continue
		}
		for used[next] {
			next++
		}
		used[next] = true
		out[i] = next
	}
	return out
}

// decodeReward reads one reward compound: the items of an item reward
// ("rewards") or of a choice ("choices"); a reward of another type keeps
// its type and nothing else.
func decodeReward(c compound) Reward {
	r := Reward{Type: c.str("rewardID")}
	switch r.Type {
	case "":
		c.errorf("", "a reward needs a rewardID")
		r.Type = "(none)"
	case RewardItem:
		r.Items = decodeItems(c, "rewards")
	case RewardChoice:
		r.Items = decodeItems(c, "choices")
	}
	return r
}

func isIntArray(v any) bool {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return false
	}
	_, isMap := arr[0].(map[string]any)
	return !isMap
}

// decodeTask reads one task compound; an unknown type is a problem and a
// task the agent cannot do.
func decodeTask(c compound) Task {
	t := Task{Type: c.str("taskID")}
	if t.Type == "" {
		c.errorf("", "a task needs a taskID")
		t.Type = "(none)"
		return t
	}
	if !knownTasks[t.Type] {
		c.errorf(c.key("taskID"), "unknown task type %q: the quest keeps it as a task the agent cannot do", t.Type)
		return t
	}
	switch t.Type {
	case TaskRetrieval, TaskOptionalRetrieval, TaskCrafting:
		t.Consume = c.bool("consume")
		t.Items = decodeItems(c, "requiredItems")
	case TaskBlockBreak:
		for _, b := range c.list("blocks") {
			it := Item{ID: b.str("blockID"), Damage: b.int("meta", 0), OreDict: b.str("oreDict"), Count: b.int("amount", 1)}
			if it.Damage < 0 {
				it.Damage = Wildcard
			}
			checkItem(b, &it)
			t.Items = append(t.Items, it)
		}
	case TaskHunt:
		t.Target, t.Count = c.str("target"), c.int("required", 1)
		t.DamageType = c.str("damageType")
	case TaskLocation:
		t.Target = c.str("name")
	case TaskXP:
		t.Count = c.int("amount", 0)
	}
	return t
}

func decodeItems(c compound, name string) []Item {
	var out []Item
	for _, ic := range c.list(name) {
		it := Item{ID: ic.str("id"), Damage: ic.int("Damage", 0), OreDict: ic.str("OreDict"), Count: ic.int("Count", 1)}
		checkItem(ic, &it)
		out = append(out, it)
	}
	return out
}

func checkItem(c compound, it *Item) {
	if it.ID == "" && it.OreDict == "" {
		c.errorf("", "an item needs an id or an ore-dictionary name")
	}
	if it.Count < 1 {
		c.errorf(c.key("Count"), "an item's count must be at least 1, got %d", it.Count)
		it.Count = 1
	}
}
