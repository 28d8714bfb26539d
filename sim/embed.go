package sim

import (
	_ "embed"
)

//go:embed scenarios/default.yaml
var defaultScenarioYAML string

// DefaultScenario returns the embedded default scenario: a forest beside a
// small steam-age base (coke ovens, a boiler, a water tank, a pond, a chest).
func DefaultScenario() (*Scenario, error) {
	return ParseScenario("sim/scenarios/default.yaml", []byte(defaultScenarioYAML))
}
