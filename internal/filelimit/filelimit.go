package filelimit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxConfig is the largest configuration file a loader reads whole: skill
// specs, packs, scenarios, goal and script files, the agent config, the
// metrics state file and the world tables. The shipped files are a few KiB;
// 16 MiB leaves room for generated ones while bounding memory.
const MaxConfig = 16 << 20

// TooLargeError reports a file over its limit. Size is the file's size when
// known, else 0 (a stream that kept going past the limit).
type TooLargeError struct {
	File string
	Size int64
	Max  int64
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("%s: file is too large (%d bytes; the limit is %s)", e.File, e.Size, human(e.Max))
	}
	return fmt.Sprintf("%s: file is too large (more than %s)", e.File, human(e.Max))
}

// Msg is the error without the file name, for located error types that add
// the file themselves.
func (e *TooLargeError) Msg() string {
	if e.Size > 0 {
		return fmt.Sprintf("file is too large (%d bytes; the limit is %s)", e.Size, human(e.Max))
	}
	return fmt.Sprintf("file is too large (more than %s)", human(e.Max))
}

func human(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Check returns a *TooLargeError when size exceeds max.
func Check(file string, size int, max int64) error {
	if int64(size) > max {
		return &TooLargeError{File: file, Size: int64(size), Max: max}
	}
	return nil
}

// ReadFile reads path whole, refusing files over max bytes before reading
// them (by their size) or while reading them (for files whose size the
// system does not know, such as pipes). Open errors keep their type
// (errors.Is(err, fs.ErrNotExist) still works).
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(path, f, max)
}

// ReadFS is ReadFile on a file system.
func ReadFS(fsys fs.FS, name string, max int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(name, f, max)
}

func read(name string, f fs.File, max int64) ([]byte, error) {
	var size int64
	if st, err := f.Stat(); err == nil {
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory, not a file", name)
		}
		if st.Mode().IsRegular() {
			size = st.Size()
			if size > max {
				return nil, &TooLargeError{File: name, Size: size, Max: max}
			}
		}
	}
	// Sized by what the file says it holds (capped), grown by what is read.
	buf := make([]byte, 0, min(size, max)+1)
	data, err := readAll(io.LimitReader(f, max+1), buf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{File: name, Max: max}
	}
	return data, nil
}

// readAll is io.ReadAll starting from buf.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// Message is err's text for error types that name the file themselves: a
// *TooLargeError without its file name, anything else unchanged.
func Message(err error) string {
	var tl *TooLargeError
	if errors.As(err, &tl) {
		return tl.Msg()
	}
	return err.Error()
}
