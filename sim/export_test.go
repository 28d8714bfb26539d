package sim

// Exhaustion is the food bar's exhaustion level, for tests of what adds
// to it.
func (s *Sim) Exhaustion() float64 {
	s.acting <- struct{}{}
	defer func() { <-s.acting }()
	return s.hunger.Exhaustion
}
