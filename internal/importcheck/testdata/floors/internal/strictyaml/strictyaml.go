// Package strictyaml is a stand-in for the layering test.
package strictyaml
