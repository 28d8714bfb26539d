package msauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gtnh-agent/gtnh-agent/gtnh"
	"github.com/gtnh-agent/gtnh-agent/internal/filelimit"
)

// cacheVersion is the cache file's format version.
const cacheVersion = 1

// maxCacheFile bounds the cache file read: four tokens of a few KiB.
const maxCacheFile = 256 << 10

// DefaultCachePath is <user config dir>/gtnh-agent/microsoft-login.json
// (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/
// Application Support on macOS, %AppData% on Windows).
func DefaultCachePath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the user config directory: %w", err)
	}
	return filepath.Join(dir, "gtnh-agent", "microsoft-login.json"), nil
}

// Cache is the token cache: one JSON file holding a Login, readable and
// writable by its owner only (mode 0600, in a 0700 directory when the
// directory is created here).
type Cache struct {
	// Path of the file.
	Path string
}

// errCacheUnreadable marks a cache no retry can read: its content does not
// decode, it is over the size bound, or it is not a regular file.
var errCacheUnreadable = errors.New("unreadable file")

// PermissionError reports a cache file that others may read. The cache
// refuses such a file instead of quietly fixing its mode: the tokens in it
// may already have been read, so the user should sign in again.
type PermissionError struct {
	Path string
	Mode fs.FileMode
}

func (e *PermissionError) Error() string {
	return fmt.Sprintf("%s: the login cache is readable by other users (mode %04o); its tokens may have been read: run `agent logout` and `agent login` to replace them (or `chmod 600 %s` if no one else uses this account)",
		e.Path, e.Mode.Perm(), e.Path)
}

// cacheFile is the file's JSON form. Tokens are plain strings here, and
// only here.
type cacheFile struct {
	Version  int    `json:"version"`
	ClientID string `json:"client_id"`
	MSA      struct {
		AccessToken  string    `json:"access_token"`
		RefreshToken string    `json:"refresh_token"`
		ExpiresAt    time.Time `json:"expires_at"`
	} `json:"microsoft"`
	Minecraft struct {
		AccessToken string    `json:"access_token"`
		ExpiresAt   time.Time `json:"expires_at"`
	} `json:"minecraft"`
	Profile struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"profile"`
}

// Load reads the cache. A missing file is ErrNotLoggedIn; a file others can
// read is a *PermissionError (on systems with Unix permissions); a file
// that does not decode, is over the size bound or is not a regular file is
// an error naming the file (errCacheUnreadable).
func (c *Cache) Load() (*Login, error) {
	fi, err := os.Lstat(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotLoggedIn
	}
	if err != nil {
		return nil, fmt.Errorf("login cache: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("login cache %s: %w: not a regular file", c.Path, errCacheUnreadable)
	}
	if loosePerms(fi.Mode()) {
		return nil, &PermissionError{Path: c.Path, Mode: fi.Mode()}
	}
	data, err := filelimit.ReadFile(c.Path, maxCacheFile)
	var tooLarge *filelimit.TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, fmt.Errorf("login cache: %w: %w", errCacheUnreadable, err)
	}
	if err != nil {
		return nil, fmt.Errorf("login cache: %w", err)
	}
	l, err := decodeCache(data)
	if err != nil {
		return nil, fmt.Errorf("login cache %s: %w: %w (run `agent login` to replace it)", c.Path, errCacheUnreadable, err)
	}
	return l, nil
}

// loosePerms reports a mode that lets the group or others read or write.
// Windows has no such bits (its ACLs put files under the profile
// directory for their owner), so the check applies elsewhere only.
func loosePerms(m fs.FileMode) bool {
	return runtime.GOOS != "windows" && m.Perm()&0o077 != 0
}

func decodeCache(data []byte) (*Login, error) {
	var f cacheFile
	if err := strictJSON("the file", data, &f); err != nil {
		return nil, err
	}
	switch {
	case f.Version != cacheVersion:
		return nil, fmt.Errorf("unknown version %d (want %d)", f.Version, cacheVersion)
	case f.ClientID == "" || len(f.ClientID) > maxCodeLen || !printable(f.ClientID):
		return nil, errors.New("client_id missing or malformed")
	case f.MSA.RefreshToken == "" || len(f.MSA.RefreshToken) > maxTokenLen || len(f.MSA.AccessToken) > maxTokenLen:
		return nil, errors.New("the Microsoft tokens are missing or too long")
	case len(f.Minecraft.AccessToken) > maxTokenLen:
		return nil, errors.New("the Minecraft token is too long")
	case !isHex32(f.Profile.ID):
		return nil, errors.New("the profile id is not 32 hex digits")
	case !storable(f.MSA.ExpiresAt) || !storable(f.Minecraft.ExpiresAt):
		return nil, errors.New("an expiry time is out of range")
	}
	if err := gtnh.ValidUsername(f.Profile.Name); err != nil {
		return nil, fmt.Errorf("the profile name: %v", err)
	}
	return &Login{
		ClientID: f.ClientID,
		MSA: MSAToken{
			Access: gtnh.NewSecret(f.MSA.AccessToken), Refresh: gtnh.NewSecret(f.MSA.RefreshToken), Expires: f.MSA.ExpiresAt,
		},
		Minecraft: gtnh.NewSecret(f.Minecraft.AccessToken), MinecraftExpires: f.Minecraft.ExpiresAt,
		Profile: Profile{ID: f.Profile.ID, Name: f.Profile.Name},
	}, nil
}

// storable reports whether t survives a save: JSON times must fall in
// years 0–9999 once in UTC.
func storable(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 0 && y <= 9999
}

func encodeCache(l *Login) ([]byte, error) {
	var f cacheFile
	f.Version = cacheVersion
	f.ClientID = l.ClientID
	f.MSA.AccessToken, f.MSA.RefreshToken, f.MSA.ExpiresAt = l.MSA.Access.Reveal(), l.MSA.Refresh.Reveal(), l.MSA.Expires.UTC()
	f.Minecraft.AccessToken, f.Minecraft.ExpiresAt = l.Minecraft.Reveal(), l.MinecraftExpires.UTC()
	f.Profile.ID, f.Profile.Name = l.Profile.ID, l.Profile.Name
	return json.MarshalIndent(&f, "", "  ")
}

// Save writes the login atomically: a temporary file (created 0600) in the
// same directory, synced, then renamed over the cache, so a crash leaves
// either the old file or the new one, never a torn one, and the tokens are
// never in a file others can read. The directory is created 0700 when
// missing.
func (c *Cache) Save(l *Login) error {
	data, err := encodeCache(l)
	if err != nil {
		return fmt.Errorf("login cache: %w", err)
	}
	dir := filepath.Dir(c.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("login cache: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".microsoft-login-*.tmp")
	if err != nil {
		return fmt.Errorf("login cache: %w", err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			_ = tmp.Close()
			_ = os.Remove(name)
		}
	}()
	// CreateTemp already uses 0600; Chmod makes it independent of that.
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("login cache: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("login cache: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("login cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("login cache: %w", err)
	}
	if err := os.Rename(name, c.Path); err != nil {
		return fmt.Errorf("login cache: %w", err)
	}
	ok = true
	return nil
}

// Remove deletes the cache. It reports whether there was one.
func (c *Cache) Remove() (bool, error) {
	err := os.Remove(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("login cache: %w", err)
	}
	return true, nil
}
