// Package skills is a stand-in for the layering test.
package skills
