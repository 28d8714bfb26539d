package wire

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Addr is a parsed endpoint: unix:///path or tcp://HOST:PORT.
type Addr struct {
	// Network is "unix" or "tcp".
	Network string
	// Address is the socket path or host:port.
	Address string
}

func (a Addr) String() string {
	if a.Network == "unix" {
		return "unix://" + a.Address
	}
	return "tcp://" + a.Address
}

// ParseAddr parses unix:///absolute/or/relative/path or tcp://HOST:PORT.
func ParseAddr(s string) (Addr, error) {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return Addr{}, fmt.Errorf("address %q: want unix:///path or tcp://127.0.0.1:PORT", s)
	}
	switch scheme {
	case "unix":
		if rest == "" {
			return Addr{}, fmt.Errorf("address %q: no socket path", s)
		}
		return Addr{Network: "unix", Address: rest}, nil
	case "tcp":
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || u.Path != "" || u.User != nil || u.RawQuery != "" {
			return Addr{}, fmt.Errorf("address %q: want tcp://HOST:PORT", s)
		}
		if _, _, err := net.SplitHostPort(u.Host); err != nil {
			return Addr{}, fmt.Errorf("address %q: %v", s, err)
		}
		return Addr{Network: "tcp", Address: u.Host}, nil
	}
	return Addr{}, fmt.Errorf("address %q: unknown scheme %q (unix or tcp)", s, scheme)
}

// IsLoopback reports whether a TCP address listens on loopback only (a
// loopback IP or "localhost"); a Unix socket counts as local.
func (a Addr) IsLoopback() bool {
	if a.Network == "unix" {
		return true
	}
	host, _, err := net.SplitHostPort(a.Address)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ListenOptions tune Listen.
type ListenOptions struct {
	// Authenticated allows a TCP address that is not loopback: every
	// connection must then present a token in its hello (the server
	// checks it).
	Authenticated bool
}

// Listen opens a listener. A Unix socket is created with mode 0600; a file
// already at the path is removed only when it is a socket (a stale one
// left by a crash), anything else is an error. A TCP address must be
// loopback unless opts.Authenticated.
func Listen(a Addr, opts ListenOptions) (net.Listener, error) {
	switch a.Network {
	case "unix":
		return listenUnix(a.Address)
	case "tcp":
		if !a.IsLoopback() && !opts.Authenticated {
			return nil, fmt.Errorf("listen %s: not a loopback address; give a token file to accept connections from other hosts", a)
		}
		l, err := net.Listen("tcp", a.Address)
		if err != nil {
			return nil, fmt.Errorf("listen %s: %w", a, err)
		}
		return l, nil
	}
	return nil, fmt.Errorf("listen %s: unknown network %q", a, a.Network)
}

func listenUnix(path string) (net.Listener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("listen unix://%s: the path exists and is not a socket; not removing it", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("listen unix://%s: removing the stale socket: %w", path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("listen unix://%s: %w", path, err)
	}
	// The socket is bound in a private directory (0700), narrowed to 0600,
	// then renamed into place, so nobody else can connect in between.
	dir, err := os.MkdirTemp(filepath.Dir(path), ".ipc-")
	if err != nil {
		return nil, fmt.Errorf("listen unix://%s: %w", path, err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen unix://%s: %w", path, err)
	}
	l.SetUnlinkOnClose(false)
	if err := os.Chmod(tmp, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("listen unix://%s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		l.Close()
		return nil, fmt.Errorf("listen unix://%s: %w", path, err)
	}
	return &unixListener{UnixListener: l, path: path}, nil
}

// unixListener removes its socket file on Close.
type unixListener struct {
	*net.UnixListener
	path string
	once sync.Once
}

// Addr is the socket's path (not the private one it was bound at).
func (l *unixListener) Addr() net.Addr { return &net.UnixAddr{Name: l.path, Net: "unix"} }

func (l *unixListener) Close() error {
	err := l.UnixListener.Close()
	l.once.Do(func() { os.Remove(l.path) })
	return err
}

// Dial connects to an address.
func Dial(ctx context.Context, a Addr) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, a.Network, a.Address)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", a, err)
	}
	return c, nil
}
