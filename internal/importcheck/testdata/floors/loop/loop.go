// Package loop is a stand-in for the layering test.
package loop

import (
	_ "example.com/floors/ipc/ipctest"
)
