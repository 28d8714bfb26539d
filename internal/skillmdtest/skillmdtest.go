// Package skillmdtest writes knowledge-skill trees for tests: SKILL.md
// files and the directories around them. Only tests import it.
package skillmdtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// SkillMD builds a SKILL.md with the given name and description, extra
// frontmatter lines and body.
func SkillMD(name, desc, extra, body string) string {
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("name: " + name + "\n")
	b.WriteString("description: " + desc + "\n")
	if extra != "" {
		b.WriteString(strings.TrimRight(extra, "\n") + "\n")
	}
	b.WriteString("---\n")
	b.WriteString(body)
	return b.String()
}

// GoodMD is a lint-clean SKILL.md for name.
func GoodMD(name string) string {
	return SkillMD(name, "Explains "+name+" for the agent. Use when the task is about "+name+".",
		"metadata:\n  version: 1.0.0\n  tags: [test]\n  author: tests",
		"# "+strings.ToUpper(name[:1])+name[1:]+"\n\nFirst line of instructions.\nSecond line.\n")
}

// WriteTree writes files (slash paths) under root.
func WriteTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
}
