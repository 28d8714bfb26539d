// Command compare runs the side-by-side benchmarks and prints one table:
// this project's pathfinder, nearest-block search, chunk decoder and column
// memory against mineflayer-pathfinder, mineflayer's findBlocks, a
// hand-written Node decoder and prismarine-chunk, on the same world.
//
// Run it from the repository root:
//
//	go run ./bench/cmd/compare            # 7 repetitions
//	go run ./bench/cmd/compare -reps 15
//	go run ./bench/cmd/compare -short     # what CI runs
//
// It needs Go and Node (18 or later) with npm; it installs the JavaScript
// side with npm ci into bench/js/node_modules from the committed lock file,
// again whenever the lock file changes.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gtnh-agent/gtnh-agent/bench"
)

func main() {
	reps := flag.Int("reps", 7, "timed repetitions of each case on each side (the two sides alternate)")
	short := flag.Bool("short", false, "quick run: 1 repetition, no warm-up, mineflayer-pathfinder only on the first route")
	jsDir := flag.String("js", "", "the JavaScript side's directory (default: bench/js of the repository)")
	noInstall := flag.Bool("no-install", false, "do not run npm ci, even when the lock file changed")
	timeout := flag.Duration("path-timeout", 120*time.Second, "time limit of one mineflayer-pathfinder search")
	flag.Parse()
	if *short && !isFlagSet("reps") {
		*reps = 1
	}
	if err := run(*reps, *short, *jsDir, *noInstall, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func isFlagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func run(reps int, short bool, jsDir string, noInstall bool, timeout time.Duration) error {
	if jsDir == "" {
		root, err := repoRoot()
		if err != nil {
			return err
		}
		jsDir = filepath.Join(root, "bench", "js")
	}
	if !noInstall {
		if err := install(jsDir); err != nil {
			return err
		}
	}
	cfg := bench.Config{Reps: reps, Short: short, JSDir: jsDir, PathTimeout: timeout, Progress: os.Stderr}
	rep, err := bench.Run(cfg)
	if err != nil {
		return err
	}
	fmt.Printf("Side by side on the benchmark world, %d repetition(s) per side, alternating; medians with (min–max).\n", rep.Reps)
	fmt.Printf("%s %s/%s, %d CPUs; Node %s; world sha256 %.16s…, identical on both sides; %s in all.\n\n",
		rep.Go, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), rep.Node, rep.WorldHash, rep.Took.Round(time.Second))
	bench.WriteTable(os.Stdout, rep)
	return nil
}

// repoRoot finds the repository from the working directory: the nearest
// directory above it holding bench/js/package.json.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "bench", "js", "package.json")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run it inside the repository (no bench/js/package.json above the working directory), or pass -js")
		}
		dir = parent
	}
}

// install runs npm ci in dir unless node_modules was installed from the
// same lock file (a stamp holds the lock file's hash).
func install(dir string) error {
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(dir, "node_modules", ".gtnh-bench-lock")
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("the JavaScript side needs npm (with Node 18 or later): %w", err)
	}
	fmt.Fprintln(os.Stderr, "installing the JavaScript side: npm ci in", dir)
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm ci in %s: %w", dir, err)
	}
	return os.WriteFile(stamp, []byte(want), 0o644)
}
