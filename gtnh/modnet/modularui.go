package modnet

import (
	"encoding/binary"
	"math"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// ModularUIChannel is ModularUI 1's channel: its SimpleNetworkWrapper is
// named ModularUI.MODID (GTNewHorizons/ModularUI 1.2.20, NetworkHandler).
const ModularUIChannel = "modularui"

// ModularUIWidgetUpdate is the discriminator of SWidgetUpdate (one byte,
// Forge 1.7.10 FMLIndexedMessageToMessageCodec.encode), the
// server's widget values: the first message NetworkHandler.init registers.
const ModularUIWidgetUpdate byte = 0

// ModularUIClientWidgetUpdate is the discriminator of CWidgetUpdate, the
// client's message to the server's window: the second message
// NetworkHandler.init registers (registerS2C(SWidgetUpdate), then
// registerC2S(CWidgetUpdate), numbered from 0 in one counter).
const ModularUIClientWidgetUpdate byte = 1

// ModularUI 1's own sync codes (ModularUIContext.DataCodes): messages with
// widget id WidgetInternalSync are the context's, not a widget's, and their
// code says what they do.
const (
	// WidgetInternalSync is DataCodes.INTERNAL_SYNC, the widget id of the
	// context's own messages.
	WidgetInternalSync int32 = -1
	// CodeSyncInit is DataCodes.SYNC_INIT: sent by the client once its
	// copy of the main window is built (ModularUIContext.initialize), it
	// marks the server's main window initialized; until then the server
	// syncs none of its widgets (ModularUIContainer.detectAndSendChanges:
	// "do not allow syncing before the client is initialized"), and its
	// first sync after it sends every widget's value (ModularWindow's
	// initSync).
	CodeSyncInit int32 = 2
)

const (
	msgWidgetUpdate       = "ModularUI SWidgetUpdate"
	msgClientWidgetUpdate = "ModularUI CWidgetUpdate"
)

// WidgetUpdate is one ModularUI 1 widget message: SWidgetUpdate, a
// widget's value sent to the client while its window is open, or
// CWidgetUpdate, the client's message to a widget or (widget
// WidgetInternalSync) to the window's context. Both have the same body.
type WidgetUpdate struct {
	// Widget is the widget's sync id in its window: ModularWindow numbers
	// the window's ISyncedWidgets from 0 breadth-first; -1 is ModularUI's
	// own (ModularUIContext.DataCodes.INTERNAL_SYNC).
	Widget int32
	// Code is the widget's message kind (ISyncedWidget.syncToClient id),
	// or for widget -1 a DataCodes value.
	Code int32
	// Window is the window's key in ModularUIContext.syncedWindows (0:
	// the main window).
	Window int32
	// Data is the widget's own data (aliasing the payload).
	Data []byte
}

// DecodeWidgetUpdate decodes a modularui channel payload holding
// SWidgetUpdate: u8 discriminator 0, VarInt widget id (SWidgetUpdate.encode),
// VarInt length and that many bytes (NetworkUtils.writePacketBuffer), which
// are VarInt code, VarInt window id, then the widget's data
// (ModularUIContext.sendServerPacket).
func DecodeWidgetUpdate(payload []byte) (WidgetUpdate, error) {
	return decodeWidgetMessage(msgWidgetUpdate, ModularUIWidgetUpdate, payload)
}

// DecodeClientWidgetUpdate decodes a modularui channel payload holding
// CWidgetUpdate, the client's message: u8 discriminator 1, then the same
// body as SWidgetUpdate (CWidgetUpdate.encode: VarInt widget id, then
// NetworkUtils.writePacketBuffer of VarInt code, VarInt window key and the
// data, ModularUIContext.sendClientPacket).
func DecodeClientWidgetUpdate(payload []byte) (WidgetUpdate, error) {
	return decodeWidgetMessage(msgClientWidgetUpdate, ModularUIClientWidgetUpdate, payload)
}

func decodeWidgetMessage(msg string, disc byte, payload []byte) (WidgetUpdate, error) {
	r := proto17.NewFieldReader(msg, payload)
	if d := r.U8("discriminator"); r.Err() == nil && d != disc {
		r.Failf("discriminator", 0, "discriminator %d is not %s (%d)", d, msg, disc)
	}
	var u WidgetUpdate
	u.Widget = r.VarInt("widgetId")
	at := r.Offset()
	n := r.VarInt("length")
	if r.Err() == nil && (n < 0 || int(n) != r.Remaining()) {
		r.Failf("length", at, "length %d, but %d bytes follow", n, r.Remaining())
	}
	u.Code = r.VarInt("code")
	at = r.Offset()
	u.Window = r.VarInt("windowId")
	if r.Err() == nil && u.Window < 0 {
		r.Failf("windowId", at, "negative window id %d", u.Window)
	}
	u.Data = r.Rest()
	if err := r.Finish(); err != nil {
		return WidgetUpdate{}, err
	}
	return u, nil
}

// EncodeWidgetUpdate is the SWidgetUpdate payload DecodeWidgetUpdate reads.
func EncodeWidgetUpdate(u WidgetUpdate) []byte {
	return encodeWidgetMessage(ModularUIWidgetUpdate, u)
}

// EncodeClientWidgetUpdate is the CWidgetUpdate payload
// DecodeClientWidgetUpdate reads: what ModularUI's client sends on the
// modularui channel.
func EncodeClientWidgetUpdate(u WidgetUpdate) []byte {
	return encodeWidgetMessage(ModularUIClientWidgetUpdate, u)
}

// SyncInit is the CWidgetUpdate a ModularUI 1 client sends as soon as it
// has built a window it opened (ModularUIContext.initialize, for the main
// window, key 0): widget WidgetInternalSync, code CodeSyncInit, no data
// (NetworkUtils.EMPTY_PACKET). The nine bytes are 01 (discriminator),
// ff ff ff ff 0f (VarInt -1), 02 (length), 02 (SYNC_INIT), 00 (key 0).
func SyncInit(window int32) []byte {
	return EncodeClientWidgetUpdate(WidgetUpdate{Widget: WidgetInternalSync, Code: CodeSyncInit, Window: window})
}

func encodeWidgetMessage(disc byte, u WidgetUpdate) []byte {
	body := proto17.AppendVarInt(nil, u.Code)
	body = proto17.AppendVarInt(body, u.Window)
	body = append(body, u.Data...)
	b := []byte{disc}
	b = proto17.AppendVarInt(b, u.Widget)
	b = proto17.AppendVarInt(b, int32(len(body)))
	return append(b, body...)
}

// ProgressBarValue reads a ProgressBar's value: code 0 with one big-endian
// float (ProgressBar.detectAndSendChanges writes buffer.writeFloat, a
// fraction of the bar). Values that are not finite, or outside 0..1 by more
// than a rounding error, are refused.
func ProgressBarValue(u WidgetUpdate) (float64, error) {
	if u.Code != 0 {
		return 0, &proto17.Error{Packet: msgWidgetUpdate, Field: "code", Offset: -1, Err: proto17.Invalidf("code %d is not a progress value", u.Code)}
	}
	if len(u.Data) != 4 {
		return 0, &proto17.Error{Packet: msgWidgetUpdate, Field: "progress", Offset: -1, Err: proto17.Invalidf("%d bytes, not a 4-byte float", len(u.Data))}
	}
	v := float64(math.Float32frombits(binary.BigEndian.Uint32(u.Data)))
	if math.IsNaN(v) || v < -1e-6 || v > 1+1e-6 {
		return 0, &proto17.Error{Packet: msgWidgetUpdate, Field: "progress", Offset: -1, Err: proto17.Invalidf("progress %v outside 0..1", v)}
	}
	return min(max(v, 0), 1), nil
}

// ProgressBarData is the data of a ProgressBar's value v.
func ProgressBarData(v float32) []byte {
	return binary.BigEndian.AppendUint32(nil, math.Float32bits(v))
}
