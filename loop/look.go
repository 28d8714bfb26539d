package loop

import (
	"fmt"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/ipc"
	"github.com/gtnh-agent/gtnh-agent/world"
)

// lookedInto compares the machines a step opened (its open_container
// actions, each with its result) whose contents were unknown before the step
// with the world after it: read are the positions whose contents are known
// now, unread one reason per machine whose contents are still unknown (the
// body's word for what did not come, its result's "unread" detail, when it
// gave one). A machine opened twice counts once.
func lookedInto(acts []action.Envelope, results []ipc.Result, before, after *world.Snapshot) (read []world.BlockPos, unread []string) {
	seen := map[world.BlockPos]bool{}
	for i, e := range acts {
		open, ok := e.Action.(action.OpenContainer)
		if !ok || i >= len(results) || !results[i].OK() || seen[open.Pos] {
			continue
		}
		seen[open.Pos] = true
		b, ok := machineAt(before, "", open.Pos)
		if !ok || !b.ContentsUnknown {
			continue
		}
		a, ok := machineAt(after, b.Kind, open.Pos)
		if !ok {
			continue // gone: nothing left to read
		}
		if !a.ContentsUnknown {
			read = append(read, open.Pos)
			continue
		}
		why := fmt.Sprintf("the %s's window showed none of its contents", a.Kind)
		if s, ok := results[i].Details["unread"].(string); ok && s != "" {
			why = s
		}
		unread = append(unread, fmt.Sprintf("open_container at %v: %s, so its contents are still unknown and nothing is done to it", open.Pos, why))
	}
	return read, unread
}

// onlyLooks reports whether a step's actions only walk and open and close
// windows: a step that changed nothing but what the body knows.
func onlyLooks(acts []action.Action) bool {
	for _, a := range acts {
		switch a.(type) {
		case action.MoveTo, action.OpenContainer, action.CloseContainer:
		default:
			return false
		}
	}
	return true
}
