// Package suggest is a stand-in for the layering test.
package suggest
