// Package importcheck reads the module's import graph from its source, for
// the tests that keep packages in their layers: a test fixture imported
// only by tests, a transport that knows nothing of planners, the knowledge
// library that knows nothing of the registry. Only non-test Go files count,
// whatever their build constraints, so a file that would pull a package
// into the binary on some platform is caught on every platform.
package importcheck

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Graph is the module's packages and what their non-test files import.
type Graph struct {
	// Module is the module path (go.mod's module line).
	Module string
	// Root is the module's directory.
	Root string
	// files maps a package path to its non-test files (paths relative to
	// Root, slash-separated) and each file's imports.
	files map[string]map[string][]string
}

// Load reads the module containing dir: it walks up from dir to go.mod,
// then parses the imports of every non-test Go file below, skipping
// testdata, node_modules and directories starting with "." or "_", as the
// go command does.
func Load(dir string) (*Graph, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			return nil, fmt.Errorf("importcheck: no go.mod above %s", dir)
		}
		root = up
	}
	mod, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	g := &Graph{Module: mod, Root: root, files: map[string]map[string][]string{}}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		pkg := mod
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
			pkg = mod + "/" + dir
		}
		imports := []string{}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: import %s: %w", rel, imp.Path.Value, err)
			}
			imports = append(imports, p)
		}
		if g.files[pkg] == nil {
			g.files[pkg] = map[string][]string{}
		}
		g.files[pkg][rel] = imports
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("importcheck: %w", err)
	}
	return g, nil
}

func modulePath(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("importcheck: %s has no module line", gomod)
}

// Path returns the import path of a package given relative to the module
// ("ipc/remote"; "" is the module's root package).
func (g *Graph) Path(rel string) string {
	if rel == "" {
		return g.Module
	}
	return g.Module + "/" + rel
}

// Rel returns a package path relative to the module ("ipc/remote"), or
// the path itself for a package outside it.
func (g *Graph) Rel(pkg string) string {
	if pkg == g.Module {
		return ""
	}
	if rest, ok := strings.CutPrefix(pkg, g.Module+"/"); ok {
		return rest
	}
	return pkg
}

// Packages returns the module's packages (import paths with non-test Go
// files), sorted.
func (g *Graph) Packages() []string {
	out := make([]string, 0, len(g.files))
	for p := range g.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Files returns the number of non-test Go files read.
func (g *Graph) Files() int {
	n := 0
	for _, fs := range g.files {
		n += len(fs)
	}
	return n
}

// Importers returns the non-test files (relative to Root) that import pkg
// directly, sorted.
func (g *Graph) Importers(pkg string) []string {
	var out []string
	for _, files := range g.files {
		for file, imports := range files {
			if slices.Contains(imports, pkg) {
				out = append(out, file)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Imports returns the packages pkg's non-test files import directly,
// sorted and without repeats.
func (g *Graph) Imports(pkg string) []string {
	var out []string
	for _, imports := range g.files[pkg] {
		out = append(out, imports...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Chain returns an import chain from pkg to a package that match accepts,
// shortest first (pkg, …, the match), or nil when pkg depends on no such
// package, directly or through others. Only the module's own packages are
// followed; a package outside it can be matched but is not looked into.
func (g *Graph) Chain(pkg string, match func(pkg string) bool) []string {
	prev := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, imp := range g.Imports(p) {
			if _, seen := prev[imp]; seen {
				continue
			}
			prev[imp] = p
			if match(imp) {
				chain := []string{imp}
				for q := p; q != ""; q = prev[q] {
					chain = append(chain, q)
				}
				slices.Reverse(chain)
				return chain
			}
			if _, ok := g.files[imp]; ok {
				queue = append(queue, imp)
			}
		}
	}
	return nil
}

// Under returns a matcher for the module packages named by patterns, each
// relative to the module: "loop" is that package, "planner/..." is
// planner and every package below it.
func (g *Graph) Under(patterns ...string) func(pkg string) bool {
	return func(pkg string) bool {
		for _, pat := range patterns {
			if tree, ok := strings.CutSuffix(pat, "/..."); ok {
				base := g.Path(tree)
				if pkg == base || strings.HasPrefix(pkg, base+"/") {
					return true
				}
			} else if pkg == g.Path(pat) {
				return true
			}
		}
		return false
	}
}
