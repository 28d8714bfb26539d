// Package benchworld is a stand-in for the layering test.
package benchworld
