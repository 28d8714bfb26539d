package fakeserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/gtnh/modnet"
	"github.com/gtnh-agent/gtnh-agent/proto17"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// openBoiler enters a steam-age server's world, right-clicks its boiler
// from beside it and reads the window's OpenGui and Window Items.
func openBoiler(t *testing.T, mutate func(*Options)) (*Server, *tclient, Boiler, modnet.OpenGui) {
	t.Helper()
	o := Options{Inventory: []Item{}}
	SteamAge(&o)
	o.Boilers[0].Water, o.Boilers[0].Steam, o.Boilers[0].Temperature = 8000, 4000, 250
	if mutate != nil {
		mutate(&o)
	}
	s := newServer(t, o)
	c, _ := enter(t, s, "bot")
	b := o.Boilers[0]
	c.moveTo(float64(b.X)+0.5, 64, float64(b.Z)+2.5)
	c.write(&proto17.PlayerBlockPlacement{X: int32(b.X), Y: uint8(b.Y), Z: int32(b.Z), Face: proto17.FaceSouth})
	g := c.openGui()
	require.Equal(t, "modularui", g.ModID)
	untilType[*proto17.WindowItems](c)
	return s, c, b, g
}

// widgetsUntilChat sends a chat command and reads until the server's answer,
// returning the ModularUI widget values that came before it: a server
// answers a connection's packets in order, so anything the window had sent
// by then is in the list.
func widgetsUntilChat(t *testing.T, c *tclient) []modnet.WidgetUpdate {
	t.Helper()
	c.write(&proto17.ServerboundChat{Message: "/sync-probe"})
	var got []modnet.WidgetUpdate
	c.until("the chat answer", func(p proto17.Packet) bool {
		if pm, ok := p.(*proto17.PluginMessage); ok && pm.Channel == modnet.ModularUIChannel {
			u, err := modnet.DecodeWidgetUpdate(pm.Data)
			require.NoError(t, err)
			got = append(got, u)
		}
		_, chat := p.(*proto17.Chat)
		return chat
	})
	return got
}

func barValue(t *testing.T, u modnet.WidgetUpdate) float64 {
	t.Helper()
	v, err := modnet.ProgressBarValue(u)
	require.NoError(t, err)
	return v
}

// TestBoilerWindowSyncsAfterSyncInit: the test server's GregTech window
// follows ModularUI 1 (ModularUIContainer.detectAndSendChanges syncs only
// an initialized window): no bar before the client's SYNC_INIT, then every
// bar once, then only a bar that changed. SYNC_INITs for another window key,
// for a widget, or a second one change nothing.
func TestBoilerWindowSyncsAfterSyncInit(t *testing.T) {
	s, c, b, _ := openBoiler(t, nil)
	assert.Empty(t, widgetsUntilChat(t, c), "no widget value before SYNC_INIT")

	// Not the main window's SYNC_INIT: nothing.
	for _, u := range []modnet.WidgetUpdate{
		{Widget: modnet.WidgetInternalSync, Code: modnet.CodeSyncInit, Window: 1},
		{Widget: 5, Code: modnet.CodeSyncInit, Window: 0},
		{Widget: modnet.WidgetInternalSync, Code: 4, Window: 0},
	} {
		c.write(&proto17.ServerboundPluginMessage{Channel: modnet.ModularUIChannel, Data: modnet.EncodeClientWidgetUpdate(u)})
	}
	c.write(&proto17.ServerboundPluginMessage{Channel: modnet.ModularUIChannel, Data: []byte{1, 0xff}}) // broken: dropped
	assert.Empty(t, widgetsUntilChat(t, c), "no widget value for other messages")

	c.write(&proto17.ServerboundPluginMessage{Channel: modnet.ModularUIChannel, Data: modnet.SyncInit(0)})
	got := widgetsUntilChat(t, c)
	require.Len(t, got, 4, "every bar once: %+v", got)
	for i, u := range got {
		assert.Equal(t, int32(4+i), u.Widget)
		assert.Equal(t, int32(0), u.Window)
	}
	assert.InDelta(t, 4000.0/16000, barValue(t, got[0]), 1e-6, "steam")
	assert.InDelta(t, 8000.0/16000, barValue(t, got[1]), 1e-6, "water")
	assert.InDelta(t, 250.0/500, barValue(t, got[2]), 1e-6, "temperature")

	// The water changes: the next tick sends that bar alone.
	pos := world.Pos(b.X, b.Y, b.Z)
	s.mu.Lock()
	s.mods.boxes[pos].water = 12000
	s.mu.Unlock()
	p := c.until("the changed water bar", func(p proto17.Packet) bool {
		pm, ok := p.(*proto17.PluginMessage)
		return ok && pm.Channel == modnet.ModularUIChannel
	})
	u, err := modnet.DecodeWidgetUpdate(p.(*proto17.PluginMessage).Data)
	require.NoError(t, err)
	assert.Equal(t, int32(5), u.Widget)
	assert.InDelta(t, 12000.0/16000, barValue(t, u), 1e-6)
	c.write(&proto17.ServerboundPluginMessage{Channel: modnet.ModularUIChannel, Data: modnet.SyncInit(0)})
	assert.Empty(t, widgetsUntilChat(t, c), "nothing else changed, and a second SYNC_INIT is not a new init")
}

// TestBoilerWindowSilent: with ModularUISilent the window opens with its
// slots and never sends a bar, SYNC_INIT or not.
func TestBoilerWindowSilent(t *testing.T) {
	_, c, _, _ := openBoiler(t, func(o *Options) { o.ModularUI = ModularUISilent })
	c.write(&proto17.ServerboundPluginMessage{Channel: modnet.ModularUIChannel, Data: modnet.SyncInit(0)})
	assert.Empty(t, widgetsUntilChat(t, c))
}

// TestSyncInitWithoutAWindow: a SYNC_INIT with no ModularUI window open
// (after the window closed, or while a chest's is open) is dropped.
func TestSyncInitWithoutAWindow(t *testing.T) {
	_, c, _, g := openBoiler(t, nil)
	c.write(&proto17.ServerboundCloseWindow{WindowID: uint8(g.WindowID)})
	c.write(&proto17.ServerboundPluginMessage{Channel: modnet.ModularUIChannel, Data: modnet.SyncInit(0)})
	assert.Empty(t, widgetsUntilChat(t, c))

	o := Options{}
	SteamAge(&o)
	require.Len(t, o.Chests, 2)
	ch := o.Chests[1] // the vanilla chest
	c.moveTo(float64(ch.X)+0.5, 64, float64(ch.Z)-1.5)
	c.write(&proto17.PlayerBlockPlacement{X: int32(ch.X), Y: uint8(ch.Y), Z: int32(ch.Z), Face: proto17.FaceNorth})
	untilType[*proto17.OpenWindow](c)
	c.write(&proto17.ServerboundPluginMessage{Channel: modnet.ModularUIChannel, Data: modnet.SyncInit(0)})
	assert.Empty(t, widgetsUntilChat(t, c), "a chest's window is no ModularUI window")
}
