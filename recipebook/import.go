package recipebook

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Formats the importer reads.
const (
	FormatAuto       = "auto"
	FormatGuineaUtil = "guineautil"
	FormatRecEx      = "recex"
)

// Importer gathers the recipes of one or more dump files into a book.
type Importer struct {
	book Book
	sum  *Summary
	in   *interner
}

// NewImporter returns an importer whose summary names format.
func NewImporter(format string) *Importer {
	return &Importer{sum: newSummary(format), in: newInterner()}
}

// Result returns the book and the summary of what was read.
func (im *Importer) Result() (*Book, *Summary) { return &im.book, im.sum }

var recexStart = regexp.MustCompile(`^\s*\{\s*"sources"\s*:`)

// Sniff tells a dump's format from its first bytes: RecEx's root holds only
// "sources"; GuineaUtil's names its NEI handler.
func Sniff(head []byte) (string, error) {
	if recexStart.Match(head) {
		return FormatRecEx, nil
	}
	if bytes.Contains(head, []byte(`"handlerID"`)) || bytes.Contains(head, []byte(`"dumperName"`)) ||
		bytes.Contains(head, []byte(`"recipes"`)) {
		return FormatGuineaUtil, nil
	}
	return "", fmt.Errorf("neither a RecEx dump (a JSON object with \"sources\") nor a GuineaUtil dump (a JSON object with \"handlerID\" and \"recipes\"); name the format with --format")
}

// Import reads a dump: a RecEx or GuineaUtil JSON file, or a directory of
// GuineaUtil files (every *.json in it). format is FormatAuto to tell the
// format from the file.
func Import(path, format string) (*Book, *Summary, error) {
	start := time.Now()
	switch format {
	case FormatAuto, FormatGuineaUtil, FormatRecEx:
	default:
		return nil, nil, fmt.Errorf("unknown format %q: want %s, %s or %s", format, FormatGuineaUtil, FormatRecEx, FormatAuto)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	var files []string
	if info.IsDir() {
		if format == FormatRecEx {
			return nil, nil, fmt.Errorf("%s is a directory: a RecEx dump is one file", path)
		}
		format = FormatGuineaUtil
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(strings.ToLower(e.Name()), ".json") {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
		sort.Strings(files)
		if len(files) == 0 {
			return nil, nil, fmt.Errorf("%s: no .json files (GuineaUtil writes one per recipe handler)", path)
		}
	} else {
		files = []string{path}
	}
	im := NewImporter(format)
	for _, f := range files {
		if err := im.importFile(f, format); err != nil {
			return nil, nil, err
		}
	}
	b, s := im.Result()
	s.Elapsed = time.Since(start)
	return b, s, nil
}

func (im *Importer) importFile(file, format string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	return im.Read(file, f, format)
}

// Read reads one dump file in the given format (FormatAuto: told from its
// first bytes).
func (im *Importer) Read(file string, r io.Reader, format string) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if format == FormatAuto {
		head, err := br.Peek(4096)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return fmt.Errorf("%s: %w", file, err)
		}
		format, err = Sniff(head)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if im.sum.Format == FormatAuto {
			im.sum.Format = format
		}
	}
	switch format {
	case FormatRecEx:
		return im.ReadRecEx(file, br)
	case FormatGuineaUtil:
		return im.ReadGuineaUtil(file, br)
	}
	return fmt.Errorf("unknown format %q", format)
}
