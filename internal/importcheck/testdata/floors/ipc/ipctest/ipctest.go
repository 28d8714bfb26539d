// Package ipctest is a stand-in for the layering test.
package ipctest

import (
	_ "example.com/floors/internal/memnet"
)
