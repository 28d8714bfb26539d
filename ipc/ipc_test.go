package ipc

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gtnh-agent/gtnh-agent/action"
	"github.com/gtnh-agent/gtnh-agent/world"
)

type fakeBody struct {
	supports []action.Kind
	exec     func(ctx context.Context, a action.Action) Result
}

func (f fakeBody) Info() Info { return Info{Name: "fake", Supports: f.supports} }
func (f fakeBody) Observe(context.Context) (*world.Snapshot, error) {
	return &world.Snapshot{Tick: 7}, nil
}
func (f fakeBody) Execute(ctx context.Context, a action.Action) Result { return f.exec(ctx, a) }

var _ Body = fakeBody{}

func TestInProcess(t *testing.T) {
	ok := func(context.Context, action.Action) Result { return Result{Code: OK, Ticks: 3} }
	tests := []struct {
		name   string
		body   fakeBody
		ctx    func() context.Context
		action action.Action
		want   Code
	}{
		{"ok", fakeBody{supports: []action.Kind{action.KindWait}, exec: ok}, nil, action.Wait{Ticks: 5}, OK},
		{"unsupported", fakeBody{supports: []action.Kind{action.KindChat}, exec: ok}, nil, action.Wait{Ticks: 5}, UnsupportedAction},
		{"invalid", fakeBody{supports: []action.Kind{action.KindWait}, exec: ok}, nil, action.Wait{Ticks: 0}, InvalidParams},
		{"nil action", fakeBody{supports: action.Kinds(), exec: ok}, nil, nil, InvalidParams},
		{"panic", fakeBody{supports: action.Kinds(), exec: func(context.Context, action.Action) Result { panic("boom") }}, nil, action.Wait{Ticks: 1}, Internal},
		{"unknown code", fakeBody{supports: action.Kinds(), exec: func(context.Context, action.Action) Result { return Result{Code: "meh"} }}, nil, action.Wait{Ticks: 1}, Internal},
		{"cancelled", fakeBody{supports: action.Kinds(), exec: ok}, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, action.Wait{Ticks: 1}, Interrupted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.ctx != nil {
				ctx = tc.ctx()
			}
			c := InProcess(tc.body)
			res, err := c.Execute(ctx, tc.action)
			require.NoError(t, err)
			assert.Equal(t, tc.want, res.Code, res.Error)
			assert.Equal(t, tc.want == OK, res.OK())
			assert.True(t, res.Code.Valid())
		})
	}
}

func TestInProcessLifecycle(t *testing.T) {
	c := InProcess(fakeBody{supports: []action.Kind{action.KindChat}})
	info, err := c.Hello(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "fake", info.Name)
	snap, err := c.Observe(context.Background())
	require.NoError(t, err)
	assert.Equal(t, int64(7), snap.Tick)
	require.NoError(t, c.Close())
	_, err = c.Hello(context.Background())
	assert.ErrorIs(t, err, ErrClosed)
	_, err = c.Observe(context.Background())
	assert.ErrorIs(t, err, ErrClosed)
	_, err = c.Execute(context.Background(), action.Chat{Message: "hi"})
	assert.ErrorIs(t, err, ErrClosed)
}

func TestFailf(t *testing.T) {
	r := Failf(Timeout, 40, "waited %d ticks", 40)
	assert.Equal(t, Result{Code: Timeout, Error: "waited 40 ticks", Ticks: 40}, r)
	assert.False(t, r.OK())
	assert.False(t, Code("nope").Valid())
}
