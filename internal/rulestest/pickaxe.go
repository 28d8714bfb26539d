// Package rulestest holds rule sets for tests only.
package rulestest

import (
	"io/fs"

	"github.com/gtnh-agent/gtnh-agent/config"
	"github.com/gtnh-agent/gtnh-agent/rules"
)

// WithTestPickaxe returns the shipped set with one tool added to the
// mining table: GregTech's pickaxe (gregtech:gt.metatool.01, tagged
// tool:pickaxe) at harvest level 3. GTNH's Stone Age has no pickaxe of
// level 1 or more (docs/stone-age.md); tests of what comes after it, the
// metals from GregTech's ores, hold this one.
func WithTestPickaxe() (*rules.Set, error) {
	data, err := fs.ReadFile(config.FS, "mining.yaml")
	if err != nil {
		return nil, err
	}
	data = append(data, []byte("  - {id: \"gregtech:gt.metatool.01\", speed: 6, durability: 250, harvest_level: 3}\n")...)
	m, err := rules.ParseMiningRules("config/mining.yaml+test pickaxe", data)
	if err != nil {
		return nil, err
	}
	set := *rules.Default()
	set.Mining = m
	return &set, nil
}
