package game

// FluidTank is a machine's fluid tank, in millibuckets.
type FluidTank struct {
	Fluid    string `json:"fluid,omitempty"`
	Amount   int    `json:"amount"`
	Capacity int    `json:"capacity"`
}

// Machine kinds that the shipped skills know.
const (
	MachineCokeOven    = "coke_oven"
	MachineSteamBoiler = "steam_boiler"
	MachineWaterTank   = "water_tank"
	// MachineFluidTank is a tank that holds a fluid other than water (a
	// Railcraft iron or steel tank holds any one fluid).
	MachineFluidTank = "fluid_tank"
	MachineChest     = "chest"
	// MachineFurnace is a vanilla furnace: slots "input", "fuel" and
	// "output".
	MachineFurnace = "furnace"
)

// Machine is a block entity the agent works with: a coke oven, a boiler, a
// tank, a chest. Slots are named ("input", "output", "fuel", or "0".."26" for
// chests); Fluids likewise ("water", "steam", "creosote").
type Machine struct {
	Kind   string   `json:"kind"`
	Pos    BlockPos `json:"pos"`
	Formed bool     `json:"formed"` // multiblock structure complete
	Active bool     `json:"active,omitempty"`
	// Tier is the voltage tier of an electric machine ("lv", "mv", …), empty
	// for steam and unpowered ones. Tech inference reads it.
	Tier   string               `json:"tier,omitempty"`
	Slots  map[string]ItemStack `json:"slots,omitempty"`
	Fluids map[string]FluidTank `json:"fluids,omitempty"`
	// ContentsUnknown: the machine is known (its blocks, whether it is
	// formed) but its slots and tanks are not, so empty Slots and Fluids
	// say nothing. A live server sends a Railcraft coke oven's contents, and
	// a GregTech coal boiler's water and fuel slot, only to a player with
	// its window open; a player opens it to look. The simulator always
	// knows contents and never sets it.
	ContentsUnknown bool `json:"contents_unknown,omitempty"`
	// Temperature in °C. GT boilers make steam above 100 °C (bronze ones top
	// out at 500, steel at 1000), and explode when water is added while they
	// are above 100 °C and dry.
	Temperature float64 `json:"temperature,omitempty"`
	// Progress of the current operation, 0..1.
	Progress float64 `json:"progress,omitempty"`
	// Facing is the side the machine's front faces ("north", "south",
	// "west", "east", "up" or "down"), where the body can tell: a live
	// server sends it for GregTech machines. Empty when unknown.
	Facing string `json:"facing,omitempty"`
}

// Slot returns the named slot (empty when absent).
func (m Machine) Slot(name string) ItemStack { return m.Slots[name] }

// Fluid returns the named tank (zero when absent).
func (m Machine) Fluid(name string) FluidTank { return m.Fluids[name] }
