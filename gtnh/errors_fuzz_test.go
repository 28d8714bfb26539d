package gtnh

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// FuzzKickFrom: any Disconnect reason a server sends becomes a KickError
// without a panic: its reason is the reason's plain text, its key the
// component's translate key (empty for anything else), and a permanent
// kick says why.
func FuzzKickFrom(f *testing.F) {
	for _, s := range []string{
		`{"text":"You are not white-listed on this server!"}`,
		`You have been banned from this server. §cReason: griefing`,
		`{"translate":"multiplayer.disconnect.banned.reason","with":[{"text":"griefing"}]}`,
		`{"translate":"multiplayer.disconnect.duplicate_login"}`,
		`{"translate":"disconnect.timeout"}`,
		`{"text":"","extra":[{"text":"Server closed","color":"red"}]}`,
		`"Server is restarting"`,
		`{"translate":5}`, `[{"translate":"multiplayer.disconnect.kicked"}]`, `{"translate":"x"`, ``, `§`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		k := kickFrom(raw)
		if k.Reason != proto17.PlainText(raw) {
			t.Fatalf("reason %q, want the plain text %q", k.Reason, proto17.PlainText(raw))
		}
		var top struct {
			Translate any `json:"translate"`
		}
		key := ""
		if json.Unmarshal([]byte(raw), &top) == nil {
			key, _ = top.Translate.(string)
		}
		if k.Key != key {
			t.Fatalf("key %q from %q, want %q", k.Key, raw, key)
		}
		if !strings.HasPrefix(k.Error(), "kicked by the server: ") {
			t.Fatalf("error %q", k.Error())
		}
		if why, permanent := k.Permanent(); permanent && why == "" {
			t.Fatalf("permanent kick %q without a reason", raw)
		}
	})
}
