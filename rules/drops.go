package rules

import (
	"fmt"
	"slices"

	"github.com/gtnh-agent/gtnh-agent/game"
	"github.com/gtnh-agent/gtnh-agent/internal/strictyaml"
)

// DropRule is what a block gives when it is harvested: an item and a
// count, the block's own metadata masked (MetaMask ≥ 0) or the item's
// fixed one, or rolled drops (Random) that a planner cannot count on.
type DropRule struct {
	Item     string // "modid:name" without meta
	Meta     int
	MetaMask int // ≥ 0: the dropped meta is the block's meta & MetaMask
	Count    int
	Random   bool
}

// Drops is the table of block drops (config/drops.yaml). A block not in it
// drops itself.
type Drops struct {
	rules map[string]DropRule
}

// ParseDrops reads a drops data file (see config/drops.yaml).
func ParseDrops(file string, data []byte) (*Drops, error) {
	root, err := strictyaml.Parse(file, data)
	if err != nil {
		return nil, err
	}
	d := strictyaml.NewDecoder(file)
	t := &Drops{rules: map[string]DropRule{}}
	top := d.Mapping(root, "", []string{"drops"})
	if f, ok := top["drops"]; ok {
		for id, fld := range d.Mapping(f.Value, "drops", nil) {
			path := strictyaml.Join("drops", id)
			if _, meta, err := game.SplitID(id); err != nil || meta >= 0 {
				if err == nil {
					err = fmt.Errorf("a block id without meta, got %q", id)
				}
				d.Errorf(fld.Key, path, "%v", err)
				continue
			}
			df := d.Mapping(fld.Value, path, []string{"item", "count", "meta_mask", "random"})
			r := DropRule{Count: 1, MetaMask: -1}
			if v, ok := df["random"]; ok {
				r.Random, _ = d.Bool(v.Value, path+".random")
				if len(df) > 1 {
					d.Errorf(v.Value, path+".random", "random drops are rolled by the simulator: no item, count or meta_mask")
				}
				t.rules[id] = r
				continue
			}
			d.Require(fld.Value, path, df, "item")
			if v, ok := df["item"]; ok {
				if s, ok := d.String(v.Value, path+".item"); ok {
					item, meta, err := game.SplitID(s)
					if err != nil {
						d.Errorf(v.Value, path+".item", "%v", err)
					}
					r.Item, r.Meta = item, max(meta, 0)
				}
			}
			if v, ok := df["count"]; ok {
				if n, ok := d.Int(v.Value, path+".count"); ok {
					if n < 1 || n > 64 {
						d.Errorf(v.Value, path+".count", "count must be 1..64, got %d", n)
					}
					r.Count = n
				}
			}
			if v, ok := df["meta_mask"]; ok {
				if n, ok := d.Int(v.Value, path+".meta_mask"); ok {
					if n < 0 || n > 15 {
						d.Errorf(v.Value, path+".meta_mask", "meta_mask must be 0..15, got %d", n)
					}
					r.MetaMask = n
				}
			}
			t.rules[id] = r
		}
	}
	if err := d.Err(); err != nil {
		d.Errs.Sort()
		return nil, d.Errs
	}
	return t, nil
}

// loadDrops parses the shipped table (config/drops.yaml); Default holds
// it.
func loadDrops() *Drops {
	return loadShipped("drops.yaml", ParseDrops)
}

// Drop is one item a block gives: "modid:name", its meta and how many.
type Drop struct {
	Item  string
	Meta  int
	Count int
}

// Of returns what a harvested block gives, or random true when its drops
// are rolled (the caller rolls them).
func (t *Drops) Of(b game.Block) (drop Drop, random bool) {
	r, ok := t.rules[b.ID]
	if !ok {
		return Drop{Item: b.ID, Meta: b.Meta, Count: 1}, false
	}
	if r.Random {
		return Drop{}, true
	}
	meta := r.Meta
	if r.MetaMask >= 0 {
		meta = b.Meta & r.MetaMask
	}
	return Drop{Item: r.Item, Meta: meta, Count: r.Count}, false
}

// Sources lists the block ids whose harvest surely gives the item id
// ("modid:name", any meta): the listed blocks that drop it and, when the
// item is not listed as dropping something else, the item's own block.
// known reports whether an id is a block at all (nil: any id may be).
func (t *Drops) Sources(item string, known func(id string) bool) []string {
	id, _, err := game.SplitID(item)
	if err != nil {
		return nil
	}
	var out []string
	for block, r := range t.rules {
		if !r.Random && r.Item == id {
			out = append(out, block)
		}
	}
	if _, listed := t.rules[id]; !listed && (known == nil || known(id)) {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
