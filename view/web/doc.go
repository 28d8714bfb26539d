// Package web serves the live web view of a run: a page, with every asset
// embedded in the binary, that draws the world model around the bot from
// above (blocks coloured by kind and shaded by height, water and lava, ores
// and machines, the bot and its heading, the route of the current move_to,
// digs and placements), the goal and the planner's latest decision, the
// step log with verdicts and failed effects, the inventory, tier, health,
// food and time of day.
//
// A View is fed from the agent's side by hooks that never wait for a
// browser: OnStep (for loop.Config.OnStep), Planner (wraps the planner),
// Conn and Body (wrap the body, to see each observation and each action as
// it happens). Each hook takes one short lock, appends to a bounded log and
// signals a channel without blocking; steps and decisions are kept as the
// loop gave them and put in words only when a page asks. The route drawn
// for a move_to is the body's own when the world source tells it
// (RouteSource: the simulator and the game client do).
//
// Serve answers HTTP on a listener: the page and its assets, /api/state
// (the whole state as JSON), /api/map (the column grid around a point, to a
// depth), and /api/events, a Server-Sent Events stream. A publisher
// goroutine builds the shared part of an update at most once per Interval
// (100 ms by default), only while a browser is connected; each browser has
// a goroutine of its own and a mailbox of one update, overwritten when it
// falls behind, so a slow or stuck browser only ever delays itself and is
// dropped when a write stalls past its deadline. Loopback needs no token;
// any other address needs one (internal/authguard), which a browser gives
// once as ?token= and then holds in a cookie.
//
// A recording replayed offline is a Replay: the frames it holds (the world
// at moments of the recording, with the steps, the decision and the bot's
// look then, when the recording holds them) are chosen with a time slider
// on the page. StepNote and PlanNotes give a recording the steps and
// decisions in the form the page shows.
package web
