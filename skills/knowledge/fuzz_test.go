package knowledge

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseSkillMD checks that the SKILL.md parser never panics, that the
// streaming frontmatter reader used by discovery agrees with the whole-file
// parser, and that whatever it accepts satisfies the format's rules. The
// seed corpus is in testdata/fuzz/FuzzParseSkillMD.
func FuzzParseSkillMD(f *testing.F) {
	f.Add([]byte(goodMD("seed")))
	f.Add([]byte("---\nname: a\ndescription: \"---\"\n---\nbody\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ParseSkillMD("SKILL.md", data, ParseOptions{})
		fm, rest, err2 := ReadFrontmatter("SKILL.md", bytes.NewReader(data), ParseOptions{})
		if (err == nil) != (err2 == nil) {
			t.Fatalf("whole-file and streaming parsers disagree: %v vs %v", err, err2)
		}
		// Scanning never panics either.
		_ = ScanText("SKILL.md", 1, string(data))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if !reflect.DeepEqual(doc.Frontmatter, *fm) {
			t.Fatalf("frontmatter differs:\n%#v\n%#v", doc.Frontmatter, *fm)
		}
		body, _ := io.ReadAll(rest)
		if string(body) != doc.Body {
			t.Fatalf("body differs: %q vs %q", body, doc.Body)
		}
		if rest.FirstLine != doc.BodyLine {
			t.Fatalf("body line differs: %d vs %d", rest.FirstLine, doc.BodyLine)
		}
		if !nameRE.MatchString(doc.Name) || len(doc.Name) > MaxNameLen {
			t.Fatalf("accepted invalid name %q", doc.Name)
		}
		if doc.Description == "" || utf8.RuneCountInString(doc.Description) > MaxDescriptionLen {
			t.Fatalf("accepted invalid description %q", doc.Description)
		}
		if !strings.HasSuffix(string(data), doc.Body) {
			t.Fatalf("body %q is not the end of the file", doc.Body)
		}
	})
}
