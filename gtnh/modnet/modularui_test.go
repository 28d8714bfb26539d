package modnet

import (
	"errors"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

func TestDecodeWidgetUpdate(t *testing.T) {
	// Widget 5, length 6: code 0, window 0, float 0.5 (0x3f000000).
	water := []byte{0, 5, 6, 0, 0, 0x3f, 0, 0, 0}
	// Widget -1 (internal), code 5 (CLOSE_WINDOW), window 2, no data.
	internal := []byte{0, 0xff, 0xff, 0xff, 0xff, 0x0f, 2, 5, 2}
	tests := []decodeCase{
		{"progress", water, WidgetUpdate{Widget: 5, Code: 0, Window: 0, Data: []byte{0x3f, 0, 0, 0}}, nil},
		{"internal", internal, WidgetUpdate{Widget: -1, Code: 5, Window: 2, Data: []byte{}}, nil},
		{"empty", nil, WidgetUpdate{}, proto17.ErrTruncated},
		{"client message", []byte{1, 5, 6, 0, 0, 0x3f, 0, 0, 0}, WidgetUpdate{}, proto17.ErrInvalid},
		{"short body", water[:8], WidgetUpdate{}, proto17.ErrInvalid},
		{"long body", append(append([]byte{}, water...), 7), WidgetUpdate{}, proto17.ErrInvalid},
		{"negative length", []byte{0, 5, 0xff, 0xff, 0xff, 0xff, 0x0f}, WidgetUpdate{}, proto17.ErrInvalid},
		{"negative window", []byte{0, 5, 6, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}, WidgetUpdate{}, proto17.ErrInvalid},
		{"no window", []byte{0, 5, 1, 0}, WidgetUpdate{}, proto17.ErrTruncated},
	}
	checkDecodes(t, DecodeWidgetUpdate, tests)
}

// decodeCase is one input of a widget message decoder and what it gives.
type decodeCase struct {
	name string
	in   []byte
	want WidgetUpdate
	err  error
}

// checkDecodes runs a decoder over its cases.
func checkDecodes(t *testing.T, decode func([]byte) (WidgetUpdate, error), tests []decodeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decode(tt.in)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Widget != tt.want.Widget || got.Code != tt.want.Code || got.Window != tt.want.Window || string(got.Data) != string(tt.want.Data) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestProgressBarValue(t *testing.T) {
	tests := []struct {
		name string
		u    WidgetUpdate
		want float64
		ok   bool
	}{
		{"half", WidgetUpdate{Data: []byte{0x3f, 0, 0, 0}}, 0.5, true},
		{"full", WidgetUpdate{Data: []byte{0x3f, 0x80, 0, 0}}, 1, true},
		{"zero", WidgetUpdate{Data: []byte{0, 0, 0, 0}}, 0, true},
		{"other code", WidgetUpdate{Code: 1, Data: []byte{0x3f, 0, 0, 0}}, 0, false},
		{"short", WidgetUpdate{Data: []byte{0x3f, 0, 0}}, 0, false},
		{"long", WidgetUpdate{Data: []byte{0x3f, 0, 0, 0, 0}}, 0, false},
		{"above one", WidgetUpdate{Data: []byte{0x40, 0, 0, 0}}, 0, false},   // 2.0
		{"negative", WidgetUpdate{Data: []byte{0xbf, 0x80, 0, 0}}, 0, false}, // -1.0
		{"nan", WidgetUpdate{Data: []byte{0x7f, 0xc0, 0, 0}}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ProgressBarValue(tt.u)
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok %v", err, tt.ok)
			}
			if tt.ok && got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			if !tt.ok && !errors.Is(err, proto17.ErrInvalid) {
				t.Fatalf("err = %v, not ErrInvalid", err)
			}
		})
	}
}

// A whole amount n of 16 000 sent as the float n/16000 (MTEBoiler's
// ProgressBar) rounds back to n.
func TestProgressBarWholeAmounts(t *testing.T) {
	for n := 0; n <= 16000; n++ {
		u := WidgetUpdate{Data: ProgressBarData(float32(n) / 16000)}
		v, err := ProgressBarValue(u)
		if err != nil {
			t.Fatal(err)
		}
		if got := int(v*16000 + 0.5); got != n {
			t.Fatalf("%d mB read back as %d", n, got)
		}
	}
}

func FuzzWidgetUpdate(f *testing.F) {
	f.Add(EncodeWidgetUpdate(WidgetUpdate{Widget: 5, Data: ProgressBarData(0.5)}))
	f.Add(EncodeWidgetUpdate(WidgetUpdate{Widget: -1, Code: 5, Window: 2}))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := DecodeWidgetUpdate(data)
		if err != nil {
			return
		}
		if len(got.Data) > len(data) || got.Window < 0 {
			t.Fatalf("decoded %+v from %d bytes", got, len(data))
		}
		again, err := DecodeWidgetUpdate(EncodeWidgetUpdate(got))
		if err != nil || again.Widget != got.Widget || again.Code != got.Code || again.Window != got.Window || string(again.Data) != string(got.Data) {
			t.Fatalf("%+v re-decodes to %+v, %v", got, again, err)
		}
		if v, err := ProgressBarValue(got); err == nil && (v < 0 || v > 1) {
			t.Fatalf("progress %v outside 0..1", v)
		}
	})
}

// TestSyncInitBytes: the client's SYNC_INIT for the main window is the nine
// bytes ModularUI's own client writes (ModularUIContext.initialize →
// sendClientPacket(SYNC_INIT, null, mainWindow, EMPTY_PACKET) →
// CWidgetUpdate.encode), and the server side reads it back.
func TestSyncInitBytes(t *testing.T) {
	want := []byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f, 2, 2, 0}
	got := SyncInit(0)
	if string(got) != string(want) {
		t.Fatalf("SyncInit(0) = % x, want % x", got, want)
	}
	u, err := DecodeClientWidgetUpdate(got)
	if err != nil {
		t.Fatal(err)
	}
	if u.Widget != WidgetInternalSync || u.Code != CodeSyncInit || u.Window != 0 || len(u.Data) != 0 {
		t.Fatalf("decoded %+v", u)
	}
	if _, err := DecodeWidgetUpdate(got); !errors.Is(err, proto17.ErrInvalid) {
		t.Fatalf("a client message read as a server one: %v", err)
	}
	if _, err := DecodeClientWidgetUpdate(EncodeWidgetUpdate(u)); !errors.Is(err, proto17.ErrInvalid) {
		t.Fatalf("a server message read as a client one: %v", err)
	}
}

func TestDecodeClientWidgetUpdate(t *testing.T) {
	tests := []decodeCase{
		// A widget's own message: widget 3, code 1, window 0, one byte.
		{"widget", []byte{1, 3, 3, 1, 0, 7}, WidgetUpdate{Widget: 3, Code: 1, Window: 0, Data: []byte{7}}, nil},
		{"init window 2", []byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f, 2, 4, 2}, WidgetUpdate{Widget: -1, Code: 4, Window: 2, Data: []byte{}}, nil},
		{"empty", nil, WidgetUpdate{}, proto17.ErrTruncated},
		{"server message", []byte{0, 3, 3, 1, 0, 7}, WidgetUpdate{}, proto17.ErrInvalid},
		{"short body", []byte{1, 3, 3, 1, 0}, WidgetUpdate{}, proto17.ErrInvalid},
		{"negative window", []byte{1, 3, 6, 1, 0xff, 0xff, 0xff, 0xff, 0x0f}, WidgetUpdate{}, proto17.ErrInvalid},
		{"huge length", []byte{1, 3, 0xff, 0xff, 0xff, 0xff, 0x07, 0}, WidgetUpdate{}, proto17.ErrInvalid},
	}
	checkDecodes(t, DecodeClientWidgetUpdate, tests)
}

// FuzzClientWidgetUpdate: the client message's encoder and decoder round
// trip, and the decoder never reads past its input.
func FuzzClientWidgetUpdate(f *testing.F) {
	f.Add(SyncInit(0))
	f.Add(EncodeClientWidgetUpdate(WidgetUpdate{Widget: 3, Code: 1, Data: []byte{7}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := DecodeClientWidgetUpdate(data)
		if err != nil {
			return
		}
		if len(got.Data) > len(data) || got.Window < 0 {
			t.Fatalf("decoded %+v from %d bytes", got, len(data))
		}
		again, err := DecodeClientWidgetUpdate(EncodeClientWidgetUpdate(got))
		if err != nil || again.Widget != got.Widget || again.Code != got.Code || again.Window != got.Window || string(again.Data) != string(got.Data) {
			t.Fatalf("%+v re-decodes to %+v, %v", got, again, err)
		}
	})
}
