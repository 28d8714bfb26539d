package modnet

import (
	"unicode/utf8"

	"github.com/gtnh-agent/gtnh-agent/proto17"
)

// ForgeChannel is Forge's own channel (ForgeNetworkHandler, codec
// ForgeRuntimeCodec).
const ForgeChannel = "FORGE"

// ForgeFluidIDMap is FluidIdMapMessage's discriminator in ForgeRuntimeCodec
// (Forge 10.13.4.1614: addDiscriminator(1, DimensionRegisterMessage),
// addDiscriminator(2, FluidIdMapMessage)).
const ForgeFluidIDMap byte = 2

// MaxFluids bounds the entries of a fluid id map. A GTNH server registers a
// few thousand fluids; Forge numbers them from 1 in an int, but Railcraft's
// tile data carries the id in a short.
const MaxFluids = 32767

const msgFluidIDMap = "FORGE FluidIdMapMessage"

// FluidIDMap is the server's Forge fluid registry: the ids it numbered its
// fluids with at start-up (FluidRegistry), which tile data and windows use
// in place of names.
type FluidIDMap struct {
	// Names maps a fluid id to the fluid's name ("water", "creosote").
	Names map[int32]string
	// Defaults are the names of the fluids each name defaults to
	// (FluidRegistry.getDefaultFluidName, "modid:name"); absent (nil) from a
	// server that sends none.
	Defaults []string
}

// Name returns the name of the fluid with the given id.
func (m FluidIDMap) Name(id int32) (string, bool) {
	n, ok := m.Names[id]
	return n, ok
}

// DecodeFluidIDMap decodes a FORGE channel payload holding FluidIdMapMessage
// (ForgeMessage.FluidIdMapMessage of Forge 10.13.4.1614): u8 discriminator
// 2, i32 count, count × (FML string name, i32 id), then, when bytes remain,
// count × FML string default name. Names and ids must be unique (the client
// keeps them in a BiMap), ids non-negative.
func DecodeFluidIDMap(payload []byte) (FluidIDMap, error) {
	r := proto17.NewFieldReader(msgFluidIDMap, payload)
	if d := r.U8("discriminator"); r.Err() == nil && d != ForgeFluidIDMap {
		r.Failf("discriminator", 0, "discriminator %d is not FluidIdMapMessage", d)
	}
	at := r.Offset()
	n := r.I32("count")
	// An entry takes at least 5 bytes (an empty name's length and the id).
	switch {
	case r.Err() != nil:
	case n < 0 || n > MaxFluids:
		r.Failf("count", at, "%d fluids, 0..%d allowed", n, MaxFluids)
	case int(n)*5 > r.Remaining():
		r.Fail("count", at, proto17.ErrTruncated)
	}
	if err := r.Err(); err != nil {
		return FluidIDMap{}, err
	}
	m := FluidIDMap{Names: make(map[int32]string, n)}
	names := make(map[string]bool, n)
	for i := int32(0); i < n && r.Err() == nil; i++ {
		at = r.Offset()
		name := fluidName(r, "name", at)
		idAt := r.Offset()
		id := r.I32("id")
		switch {
		case r.Err() != nil:
		case names[name]:
			r.Failf("name", at, "fluid %q named twice", name)
		case id < 0:
			r.Failf("id", idAt, "fluid id %d", id)
		default:
			if _, dup := m.Names[id]; dup {
				r.Failf("id", idAt, "fluid id %d given twice", id)
			}
		}
		names[name] = true
		m.Names[id] = name
	}
	if r.Err() == nil && r.Remaining() > 0 {
		m.Defaults = make([]string, 0, min(int(n), r.Remaining()))
		for i := int32(0); i < n && r.Err() == nil; i++ {
			m.Defaults = append(m.Defaults, fluidName(r, "defaultName", r.Offset()))
		}
	}
	if err := r.Finish(); err != nil {
		return FluidIDMap{}, err
	}
	return m, nil
}

// fluidName reads one FML string naming a fluid: not empty, UTF-8.
func fluidName(r *proto17.FieldReader, field string, at int) string {
	s := r.FMLString(field)
	switch {
	case r.Err() != nil:
	case s == "":
		r.Failf(field, at, "empty fluid name")
	case !utf8.ValidString(s):
		r.Failf(field, at, "string is not valid UTF-8")
	}
	return s
}
