// Package path is a stand-in for the layering test.
package path
