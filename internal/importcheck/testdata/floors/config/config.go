// Package config is a stand-in for the layering test.
package config
