// Package memnet is a stand-in for the layering test.
package memnet
