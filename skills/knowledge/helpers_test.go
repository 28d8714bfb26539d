package knowledge

import (
	"github.com/rs/zerolog"

	"github.com/gtnh-agent/gtnh-agent/internal/skillmdtest"
	"github.com/gtnh-agent/gtnh-agent/internal/syncbuf"
)

// The SKILL.md builders and the tree writer are shared with the other
// skill packages' tests.
var (
	skillMD   = skillmdtest.SkillMD
	goodMD    = skillmdtest.GoodMD
	writeTree = skillmdtest.WriteTree
)

// newLib returns a library logging into a buffer.
func newLib() (*Library, *syncbuf.Buffer) {
	buf := &syncbuf.Buffer{}
	return New(Options{Logger: zerolog.New(buf).Level(zerolog.InfoLevel)}), buf
}
