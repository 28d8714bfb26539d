package proto17

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormatsFromMods(t *testing.T) {
	tests := []struct {
		name string
		mods []ModInfo
		want Formats
		err  bool
	}{
		{"vanilla", nil, Formats{}, false},
		{"GTNH 2.8.4", []ModInfo{{"mcp", "9.05"}, {"FML", "7.10.99.99"}, {"neid", "2.1.10"}, {"modularui", "1.2.20"}, {"modularui2", "2.2.18-1.7.10"}, {"gregtech", "5.09.51.482"}}, gtnh, false},
		{"ModularUI2 only", []ModInfo{{"modularui2", "v2.0.9"}}, modular2, false},
		{"ModularUI2 before 2.0.9 (appended count)", []ModInfo{{"modularui2", "2.0.8"}}, Formats{}, true},
		{"ModularUI2 unreadable version", []ModInfo{{"modularui2", "dev"}}, Formats{}, true},
		{"ModularUI only", []ModInfo{{"modularui", "1.0.70"}}, modular, false},
		{"NEID pre-release suffix", []ModInfo{{"neid", "2.1.10-pre"}}, neid, false},
		{"NEID 2.1.2", []ModInfo{{"neid", "2.1.2"}}, neid, false},
		{"NEID unreadable version", []ModInfo{{"neid", "dev"}}, Formats{}, true},
		{"NEID 2.1.5", []ModInfo{{"neid", "2.1.5"}}, neid, false},
		{"NEID 2.1.11 (newer than known)", []ModInfo{{"neid", "2.1.11"}}, Formats{}, true},
		{"NEID 2.1.11 pre-release (newer than known)", []ModInfo{{"neid", "2.1.11-pre"}}, Formats{}, true},
		{"NEID 2.2.0 (newer than known)", []ModInfo{{"neid", "2.2.0"}}, Formats{}, true},
		{"NEID 3", []ModInfo{{"neid", "3.0"}}, Formats{}, true},
		{"EndlessIDs", []ModInfo{{"endlessids", "1.5.3"}}, Formats{}, true},
		{"NEID 2.1.1 (8-bit block-change metadata)", []ModInfo{{"neid", "2.1.1"}}, Formats{}, true},
		{"NEID 1.5.6 (nibble metadata)", []ModInfo{{"neid", "1.5.6"}}, Formats{}, true},
		{"NEID unreadable version", []ModInfo{{"neid", "@VERSION@"}}, Formats{}, true},
		{"ids are exact", []ModInfo{{"NEID", "2.1.10"}, {"ModularUI", "1.2.20"}}, Formats{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FormatsFromMods(tc.mods)
			if tc.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestFormatsErrorsNameTheModAndVersion(t *testing.T) {
	for _, tc := range []struct{ mod, version, want string }{
		{"neid", "2.2.0", "NotEnoughIds 2.2.0 is not supported: it is newer than 2.1.10"},
		{"neid", "3.0.1-beta", "NotEnoughIds 3.0.1-beta is not supported"},
		{"neid", "2.0.3", "NotEnoughIds 2.0.3 is not supported: its chunk and block-change formats differ from 2.1.2 and later"},
		{"endlessids", "1.5.3", "EndlessIDs 1.5.3 is not supported"},
		{"neid", "dev", `cannot read NotEnoughIds version "dev"`},
	} {
		_, err := FormatsFromMods([]ModInfo{{"mcp", "9.05"}, {tc.mod, tc.version}})
		require.Error(t, err, "%s %s", tc.mod, tc.version)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestParseStatus(t *testing.T) {
	js := `{"version":{"name":"1.7.10","protocol":5},"players":{"max":20,"online":1,"sample":[{"name":"x","id":"069a79f4-44e9-4726-a5be-fca90e38aaf5"}]},
		"description":{"text":"§aGT:","extra":[{"text":" New Horizons"}]},
		"modinfo":{"type":"FML","modList":[{"modid":"mcp","version":"9.05"},{"modid":"neid","version":"2.1.10"},{"modid":"modularui","version":"1.2.20"},{"modid":"modularui2","version":"2.2.18-1.7.10"}]}}`
	st, err := ParseStatus(js)
	require.NoError(t, err)
	assert.Equal(t, 5, st.Version.Protocol)
	assert.Equal(t, "GT: New Horizons", st.MOTD())
	assert.Len(t, st.Mods(), 4)
	f, err := st.Formats()
	require.NoError(t, err)
	assert.Equal(t, gtnh, f)

	st, err = ParseStatus(`{"version":{"name":"1.7.10","protocol":5},"players":{"max":1,"online":0},"description":"plain"}`)
	require.NoError(t, err)
	assert.Equal(t, "plain", st.MOTD())
	assert.Nil(t, st.Mods())
	_, err = ParseStatus("{")
	assert.Error(t, err)
}

func TestPlainText(t *testing.T) {
	assert.Equal(t, "hello world", PlainText(`{"text":"hello ","extra":["world"]}`))
	assert.Equal(t, "disconnect.genericReason [Internal Exception: boom]",
		PlainText(`{"translate":"disconnect.genericReason","with":["Internal Exception: boom"]}`))
	assert.Equal(t, "red", PlainText(`"§cred"`))
	assert.Equal(t, "not json", PlainText("§lnot json"))
	assert.Equal(t, "ab", PlainText(`[{"text":"a"},"b"]`))
}
