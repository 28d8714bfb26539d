package proto17

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// plainTextBound is how much longer than its input PlainText's output may
// be: a number is written back as Go formats it ("1e20" becomes 21 digits)
// and a translation's arguments gain ", " each.
func plainTextBound(in int) int { return 6*in + 64 }

// checkPlain holds for any text PlainText returns for in: no formatting
// codes left, valid UTF-8 when in was, and bounded by in's length.
func checkPlain(t *testing.T, in, out string) {
	t.Helper()
	if strings.ContainsRune(out, '§') {
		t.Fatalf("PlainText(%q) = %q keeps a formatting code", in, out)
	}
	if utf8.ValidString(in) && !utf8.ValidString(out) {
		t.Fatalf("PlainText(%q) = %q is not UTF-8", in, out)
	}
	if len(out) > plainTextBound(len(in)) {
		t.Fatalf("PlainText of %d bytes gave %d bytes", len(in), len(out))
	}
}

// FuzzPlainText: any text (a chat component or not) flattens without a
// panic to bounded plain text with no formatting codes.
func FuzzPlainText(f *testing.F) {
	for _, s := range []string{
		`{"text":"§aWelcome §lhome","extra":[{"text":" and "},"more",{"translate":"chat.type.text","with":["Bot",{"text":"hi"}]}]}`,
		`"§cplain string component"`,
		`[{"text":"a"},{"text":"b","extra":[1e20,true,null]}]`,
		`{"translate":"multiplayer.disconnect.banned.reason","with":[{"text":"griefing"}]}`,
		`not json §zat all §`,
		`§`, `{}`, `[]`, ``, "\xff§\xfe",
		strings.Repeat(`{"extra":[`, 40) + `"deep"` + strings.Repeat(`]}`, 40),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		checkPlain(t, raw, PlainText(raw))
	})
}

// FuzzParseStatus: any status JSON a server (or anything answering on its
// port) sends parses or fails with an error, never a panic; a parsed one
// gives a bounded MOTD without formatting codes, its mod list, and formats
// or an error; and it says the same after being encoded and parsed again.
func FuzzParseStatus(f *testing.F) {
	for _, s := range []string{
		`{"version":{"name":"1.7.10","protocol":5},"players":{"max":20,"online":1,"sample":[{"name":"Steve","id":"069a79f4-44e9-4726-a5be-fca90e38aaf5"}]},"description":{"text":"§6GT:NH §r2.8.4","extra":[{"text":" server"}]},"modinfo":{"type":"FML","modList":[{"modid":"mcp","version":"9.05"},{"modid":"FML","version":"7.10.99.99"},{"modid":"Forge","version":"10.13.4.1614"},{"modid":"neid","version":"1.5.4"},{"modid":"endlessids","version":"1.5"}]}}`,
		`{"version":{"name":"1.7.10","protocol":5},"players":{"max":20,"online":0},"description":"A Minecraft Server"}`,
		`{"description":{"translate":"motd","with":[1,2,3]},"modinfo":{"type":"FML","modList":[{"modid":"neid","version":"not.a.version"}]}}`,
		`{"description":null,"modinfo":null}`,
		`{"players":{"max":"many"}}`, `[]`, `null`, `{`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseStatus(s)
		if err != nil {
			if st != nil {
				t.Fatalf("a status with the error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "proto17: status JSON: ") {
				t.Fatalf("error %q does not say what failed", err)
			}
			return
		}
		motd := st.MOTD()
		checkPlain(t, string(st.Description), motd)
		mods := st.Mods()
		if st.ModInfo == nil && mods != nil || st.ModInfo != nil && len(mods) != len(st.ModInfo.ModList) {
			t.Fatalf("Mods() = %d mods for modinfo %+v", len(mods), st.ModInfo)
		}
		_, _ = st.Formats()
		b, err := json.Marshal(st)
		if err != nil {
			return // a description that is not JSON (a null one is written back as null)
		}
		again, err := ParseStatus(string(b))
		if err != nil {
			t.Fatalf("the status encoded again does not parse: %v\n%s", err, b)
		}
		if again.MOTD() != motd || len(again.Mods()) != len(mods) {
			t.Fatalf("encoded and parsed again: MOTD %q, %d mods; was %q, %d mods", again.MOTD(), len(again.Mods()), motd, len(mods))
		}
	})
}
