// Package filelimit is a stand-in for the layering test.
package filelimit
