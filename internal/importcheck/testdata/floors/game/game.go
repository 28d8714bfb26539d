// Package game is a stand-in for the layering test.
package game
