package recipebook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DumpError is a recipe dump that cannot be read: the file, the byte
// offset the reader had reached, and why.
type DumpError struct {
	File   string
	Offset int64
	Err    error
}

func (e *DumpError) Error() string {
	return fmt.Sprintf("%s: at byte %d: %v", e.File, e.Offset, e.Err)
}

func (e *DumpError) Unwrap() error { return e.Err }

// maxDumpBytes bounds one dump file. A full GTNH 2.8 RecEx dump is a few
// hundred MB; the reader streams it, so this only stops an endless input.
const maxDumpBytes = 4 << 30

// stream walks a JSON document token by token so that a dump of any size
// is read one recipe at a time.
type stream struct {
	dec  *json.Decoder
	file string
}

func newStream(file string, r io.Reader) *stream {
	return &stream{dec: json.NewDecoder(&limitReader{r: r, left: maxDumpBytes}), file: file}
}

// limitReader fails, rather than ends, past its limit, so a cut-off file
// is not mistaken for a complete one.
type limitReader struct {
	r    io.Reader
	left int64
}

var errTooLarge = errors.New("dump larger than 4 GiB")

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

func (s *stream) fail(format string, args ...any) error {
	return &DumpError{File: s.file, Offset: s.dec.InputOffset(), Err: fmt.Errorf(format, args...)}
}

func (s *stream) wrap(err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return &DumpError{File: s.file, Offset: s.dec.InputOffset(), Err: err}
}

// object reads an object, calling fn for each key; fn must read the value
// (or call skip). A null stands for an empty object.
func (s *stream) object(what string, fn func(key string) error) error {
	tok, err := s.dec.Token()
	if err != nil {
		return s.wrap(err)
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return s.fail("%s: expected an object, got %s", what, describe(tok))
	}
	for s.dec.More() {
		tok, err := s.dec.Token()
		if err != nil {
			return s.wrap(err)
		}
		key, ok := tok.(string)
		if !ok {
			return s.fail("%s: expected a key, got %s", what, describe(tok))
		}
		if err := fn(key); err != nil {
			return err
		}
	}
	if _, err := s.dec.Token(); err != nil {
		return s.wrap(err)
	}
	return nil
}

// array reads an array, calling fn for each element; fn must read it. A
// null stands for an empty array.
func (s *stream) array(what string, fn func() error) error {
	tok, err := s.dec.Token()
	if err != nil {
		return s.wrap(err)
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return s.fail("%s: expected an array, got %s", what, describe(tok))
	}
	for s.dec.More() {
		if err := fn(); err != nil {
			return err
		}
	}
	if _, err := s.dec.Token(); err != nil {
		return s.wrap(err)
	}
	return nil
}

// str reads a string (null reads as "").
func (s *stream) str(what string) (string, error) {
	tok, err := s.dec.Token()
	if err != nil {
		return "", s.wrap(err)
	}
	switch v := tok.(type) {
	case nil:
		return "", nil
	case string:
		if len(v) > 4096 {
			return "", s.fail("%s: a string of %d bytes", what, len(v))
		}
		return v, nil
	}
	if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
		if err := s.skipRest(); err != nil {
			return "", err
		}
	}
	return "", s.fail("%s: expected a string, got %s", what, describe(tok))
}

// skip reads one value of any shape without keeping it; nesting is
// counted, not recursed into.
func (s *stream) skip() error {
	tok, err := s.dec.Token()
	if err != nil {
		return s.wrap(err)
	}
	if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
		return s.skipRest()
	}
	return nil
}

// skipRest reads to the end of a container whose opening was read.
func (s *stream) skipRest() error {
	depth := 1
	for depth > 0 {
		tok, err := s.dec.Token()
		if err != nil {
			return s.wrap(err)
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
	}
	return nil
}

// element decodes one array element into v. A value of the wrong type
// (a string where a number belongs, a number too large) returns
// skipped=true: the element was read and the caller drops the recipe. A
// syntax error or a cut-off file is an error.
func (s *stream) element(v any) (skipped bool, err error) {
	err = s.dec.Decode(v)
	if err == nil {
		return false, nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return true, nil
	}
	return false, s.wrap(err)
}

// end checks that nothing but white space follows the document.
func (s *stream) end() error {
	if _, err := s.dec.Token(); err != io.EOF {
		if err == nil {
			return s.fail("data after the end of the document")
		}
		return s.wrap(err)
	}
	return nil
}

func describe(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", string(v))
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}
