package modnet

import (
	"fmt"
	"strings"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// BetterQuesting's network messages, as GTNewHorizons' BetterQuesting sends
// them (src/main/java/betterquesting/, read at commit
// 479fd81a9a0a2fac4d80196f186ae8445f5ce9d7):
//
//   - one Forge channel, BQ_NET_CHAN (core/BetterQuesting.java), and one
//     message type on it, PacketQuesting, FML discriminator 0: its body is
//     one NBT compound written by ByteBufUtils.writeTag (1.7.10's
//     PacketBuffer: an i16 length, then that many bytes of gzipped NBT);
//   - that compound is a piece of a logical message
//     (network/PacketAssembly.splitPacket): the message compound is gzipped
//     (CompressedStreamTools.writeCompressed) and cut into pieces of 20,480
//     bytes, each {size: int (the whole gzip's length), index: int (where
//     the piece starts), end: byte (the last piece), data: byte[]};
//   - the reassembled message carries ID, the handler's name
//     ("betterquesting:quest_sync" …), beside the handler's own fields.
const BetterQuestingChannel = "BQ_NET_CHAN"

// BQ limits. BQPieceSize is PacketAssembly's bufSize. MaxBQMessage bounds
// the gzipped message reassembled from pieces: the pieces are kept as they
// arrive, never allocated from the size a piece claims. The message
// inflates to at most proto17.MaxNBTSize (2 MiB, vanilla's own limit for
// NBT read from the network), which a progress sync of GTNH's whole book
// stays under; the login sync of every quest's text does not, and is
// refused with an error.
const (
	BQPieceSize  = 20480
	MaxBQMessage = 4 << 20
)

// BQQuestSync is the name of NetQuestSync's messages.
const BQQuestSync = "betterquesting:quest_sync"

const (
	msgBQPiece   = "BQ PacketQuesting"
	msgBQMessage = "BQ message"
	msgBQSync    = "BQ quest_sync"
)

// BQPiece is one PacketQuesting: a piece of a logical message.
type BQPiece struct {
	Size  int32 // the length of the whole gzipped message
	Index int32 // where this piece starts in it
	End   bool  // the last piece
	Data  []byte
}

// DecodeBQPiece decodes a BQ_NET_CHAN payload: u8 discriminator 0, i16
// length, that many bytes of gzipped NBT holding the piece.
func DecodeBQPiece(payload []byte) (BQPiece, error) {
	r := proto17.NewFieldReader(msgBQPiece, payload)
	if d := r.U8("discriminator"); r.Err() == nil && d != 0 {
		r.Failf("discriminator", 0, "discriminator %d is not PacketQuesting (0)", d)
	}
	at := r.Offset()
	n := r.I16("nbt length")
	if r.Err() == nil && n < 0 {
		r.Failf("nbt length", at, "no compound (length %d)", n)
	}
	gz := r.Bytes("nbt", int(n))
	if err := r.Finish(); err != nil {
		return BQPiece{}, err
	}
	tag, err := proto17.DecodeGzipNBT(gz)
	if err != nil {
		return BQPiece{}, fmt.Errorf("%s: %w", msgBQPiece, err)
	}
	var p BQPiece
	var ok bool
	if p.Size, ok = tag.Root["size"].(int32); !ok {
		return BQPiece{}, bqFieldErr(msgBQPiece, "size", "an int")
	}
	if p.Index, ok = tag.Root["index"].(int32); !ok {
		return BQPiece{}, bqFieldErr(msgBQPiece, "index", "an int")
	}
	end, ok := tag.Root["end"].(int8)
	if !ok {
		return BQPiece{}, bqFieldErr(msgBQPiece, "end", "a byte")
	}
	p.End = end != 0
	if p.Data, ok = tag.Root["data"].([]byte); !ok {
		return BQPiece{}, bqFieldErr(msgBQPiece, "data", "a byte array")
	}
	return p, nil
}

// EncodeBQPiece is DecodeBQPiece's inverse: the payload a client sends on
// BQ_NET_CHAN.
func EncodeBQPiece(p BQPiece) ([]byte, error) {
	end := int8(0)
	if p.End {
		end = 1
	}
	gz, err := (&proto17.NBT{Root: proto17.Compound{"size": p.Size, "index": p.Index, "end": end, "data": p.Data}}).Gzip()
	if err != nil {
		return nil, err
	}
	if len(gz) > 1<<15-1 {
		return nil, fmt.Errorf("%s: the piece gzips to %d bytes, more than an i16 length holds", msgBQPiece, len(gz))
	}
	out := make([]byte, 0, 3+len(gz))
	out = append(out, 0, byte(len(gz)>>8), byte(len(gz)))
	return append(out, gz...), nil
}

// SplitBQMessage gzips a message compound and cuts it into pieces as
// PacketAssembly.splitPacket does, each encoded as a BQ_NET_CHAN payload.
func SplitBQMessage(msg proto17.Compound) ([][]byte, error) {
	gz, err := (&proto17.NBT{Root: msg}).Gzip()
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for idx := 0; idx < len(gz); idx += BQPieceSize {
		part := gz[idx:min(idx+BQPieceSize, len(gz))]
		b, err := EncodeBQPiece(BQPiece{Size: int32(len(gz)), Index: int32(idx), End: idx+len(part) == len(gz), Data: part})
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// BQAssembler puts pieces back together (PacketAssembly.assemblePacket on
// the client side: one message at a time). The zero value is ready.
type BQAssembler struct {
	size int
	buf  []byte
}

// Feed adds a piece. It returns the whole gzipped message with done set
// when the piece is the last one. A piece that does not continue the
// message being assembled (a size that changes, an index that is not where
// the last piece ended, data past the size, a size over MaxBQMessage)
// fails, and the message is dropped; the next piece with index 0 starts a
// new one.
func (a *BQAssembler) Feed(p BQPiece) (msg []byte, done bool, err error) {
	fail := func(format string, args ...any) ([]byte, bool, error) {
		a.size, a.buf = 0, nil
		return nil, false, fmt.Errorf("%s: %s", msgBQMessage, fmt.Sprintf(format, args...))
	}
	if p.Size <= 0 || int(p.Size) > MaxBQMessage {
		return fail("a message of %d bytes (at most %d)", p.Size, MaxBQMessage)
	}
	if p.Index == 0 && len(a.buf) > 0 {
		return fail("a new message began before the last one ended (%d of %d bytes)", len(a.buf), a.size)
	}
	if len(a.buf) == 0 {
		a.size = int(p.Size)
	}
	if int(p.Size) != a.size {
		return fail("the size changed from %d to %d bytes", a.size, p.Size)
	}
	if int(p.Index) != len(a.buf) {
		return fail("a piece at byte %d, expected byte %d", p.Index, len(a.buf))
	}
	if len(p.Data) > a.size-len(a.buf) {
		return fail("%d bytes at byte %d pass the size of %d", len(p.Data), p.Index, a.size)
	}
	a.buf = append(a.buf, p.Data...)
	if !p.End {
		return nil, false, nil
	}
	if len(a.buf) != a.size {
		return fail("the last piece ends at byte %d of %d", len(a.buf), a.size)
	}
	msg = a.buf
	a.size, a.buf = 0, nil
	return msg, true, nil
}

// DecodeBQMessage inflates a reassembled message and returns its handler's
// name (ID) and the compound.
func DecodeBQMessage(gz []byte) (string, proto17.Compound, error) {
	tag, err := proto17.DecodeGzipNBT(gz)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", msgBQMessage, err)
	}
	id, ok := tag.Root["ID"].(string)
	if !ok {
		return "", nil, bqFieldErr(msgBQMessage, "ID", "a string")
	}
	return id, tag.Root, nil
}

// BQQuestProgress is one quest of a quest_sync: its id and, when the
// message carries its progress, the UUIDs of the players who completed it
// and of those who claimed its rewards.
type BQQuestProgress struct {
	High, Low   int64
	HasProgress bool
	Completed   []string // lower-case UUIDs, as UUID.toString writes them
	Claimed     []string // of Completed, those whose entry says claimed
}

// BQQuestSyncMsg is a quest_sync message (network/handlers/NetQuestSync
// .sendSync): Merge false replaces the client's quest database, true
// updates the quests listed; ResetCompletion makes the progress replace
// the client's instead of adding to it.
type BQQuestSyncMsg struct {
	Merge, ResetCompletion bool
	Quests                 []BQQuestProgress
}

// DecodeBQQuestSync reads a quest_sync message: data, a list of compounds
// with questIDHigh and questIDLow (NBTConverter.UuidValueType.QUEST) and
// optionally progress (QuestInstance.writeProgressToNBT: completed, a list
// of compounds with uuid, one per player who completed the quest). A quest
// without an id is skipped, as NetQuestSync.onClient does.
func DecodeBQQuestSync(msg proto17.Compound) (BQQuestSyncMsg, error) {
	if id, _ := msg["ID"].(string); id != BQQuestSync {
		return BQQuestSyncMsg{}, fmt.Errorf("%s: the message is %q", msgBQSync, id)
	}
	var out BQQuestSyncMsg
	out.Merge = bqBool(msg, "merge")
	out.ResetCompletion = bqBool(msg, "resetCompletion")
	data, ok := msg["data"].(proto17.List)
	if !ok {
		return BQQuestSyncMsg{}, bqFieldErr(msgBQSync, "data", "a list")
	}
	for i, v := range data.Values {
		q, ok := v.(proto17.Compound)
		if !ok {
			return BQQuestSyncMsg{}, bqFieldErr(msgBQSync, fmt.Sprintf("data[%d]", i), "a compound")
		}
		hi, okHi := q["questIDHigh"].(int64)
		lo, okLo := q["questIDLow"].(int64)
		if !okHi || !okLo {
			continue
		}
		p := BQQuestProgress{High: hi, Low: lo}
		if prog, ok := q["progress"].(proto17.Compound); ok {
			p.HasProgress = true
			done, _ := prog["completed"].(proto17.List)
			for j, e := range done.Values {
				c, ok := e.(proto17.Compound)
				if !ok {
					return BQQuestSyncMsg{}, bqFieldErr(msgBQSync, fmt.Sprintf("data[%d].progress.completed[%d]", i, j), "a compound")
				}
				if u, ok := c["uuid"].(string); ok {
					p.Completed = append(p.Completed, strings.ToLower(u))
					if bqBool(c, "claimed") {
						p.Claimed = append(p.Claimed, strings.ToLower(u))
					}
				}
			}
		}
		out.Quests = append(out.Quests, p)
	}
	return out, nil
}

// BQQuestSyncRequest is the message a client sends to ask for quest state
// (NetQuestSync.requestSync with no ids): the server answers with a
// quest_sync of every quest, with their text when config is set and the
// asking player's progress when progress is set.
func BQQuestSyncRequest(config, progress bool) proto17.Compound {
	b := func(v bool) int8 {
		if v {
			return 1
		}
		return 0
	}
	return proto17.Compound{"ID": BQQuestSync, "getConfig": b(config), "getProgress": b(progress)}
}

// The messages of the quest book's buttons, client to server:
//
//   - betterquesting:quest_action (network/handlers/NetQuestAction.java):
//     action (an int: 0 claim, 1 detect — the submit button, 2 claim with
//     a choice forced) and questIDs, a list of compounds with questIDHigh
//     and questIDLow (NBTConverter.UuidValueType.QUEST.writeIds). The
//     server claims a quest the player may claim (completed, not claimed,
//     every choice picked: QuestInstance.canClaim) and, on detect, checks
//     the quest's tasks for the player (QuestInstance.detect: a retrieval
//     task that consumes takes its items then).
//   - bq_standard:task_checkbox (bq_standard/network/handlers/
//     NetTaskCheckbox.java): questIDHigh, questIDLow and taskID, the
//     task's id in the quest; the server ticks it when it is a checkbox.
//   - bq_standard:choice_reward (bq_standard/network/handlers/
//     NetRewardChoice.java): questIDHigh, questIDLow, rewardID (the
//     reward's id in the quest) and selection (the option's place); the
//     server records the pick and echoes the message.
//
// The server checks a quest's completion every 60 ticks and sends the
// progress of the quests that changed every 20 (handlers/EventHandler
// .onLivingUpdate: NetQuestSync.sendSync of the dirty quests).
const (
	BQQuestAction        = "betterquesting:quest_action"
	BQTaskCheckbox       = "bq_standard:task_checkbox"
	BQRewardChoice       = "bq_standard:choice_reward"
	BQActionClaim  int32 = 0
	BQActionDetect int32 = 1
)

// BQQuestActionMsg is a quest_action message: action (BQActionClaim,
// BQActionDetect) on the quests.
func BQQuestActionMsg(action int32, quests ...[2]int64) proto17.Compound {
	ids := proto17.List{Type: proto17.TagCompound}
	for _, q := range quests {
		ids.Values = append(ids.Values, proto17.Compound{"questIDHigh": q[0], "questIDLow": q[1]})
	}
	return proto17.Compound{"ID": BQQuestAction, "action": action, "questIDs": ids}
}

// BQTaskCheckboxMsg is a task_checkbox message: tick task of quest.
func BQTaskCheckboxMsg(quest [2]int64, task int32) proto17.Compound {
	return proto17.Compound{"ID": BQTaskCheckbox, "questIDHigh": quest[0], "questIDLow": quest[1], "taskID": task}
}

// BQRewardChoiceMsg is a choice_reward message: pick option selection of
// the quest's reward.
func BQRewardChoiceMsg(quest [2]int64, reward, selection int32) proto17.Compound {
	return proto17.Compound{"ID": BQRewardChoice, "questIDHigh": quest[0], "questIDLow": quest[1], "rewardID": reward, "selection": selection}
}

// bqBool reads an NBT boolean (a byte; absent is false, as getBoolean).
func bqBool(c proto17.Compound, key string) bool {
	v, _ := c[key].(int8)
	return v != 0
}

func bqFieldErr(msg, field, want string) error {
	return fmt.Errorf("%s: %s is not %s", msg, field, want)
}
